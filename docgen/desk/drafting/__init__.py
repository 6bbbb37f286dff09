"""A case typed on a form into a draft: the draft, checked as it is typed and previewed
(drafts), which respondent it is about (choosing), and the files it names
(draft_files: photos, uploads).
"""
