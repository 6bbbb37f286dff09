"""Who a case is about, and what they did before: a respondent found or made
(respondents; matching reduces names and addresses to keys), the offense history the
penalty reads (history), convictions from before the register imported as runs
(imports, import_runs), and each answer to "which respondent is this?" with the
penalty it would make the issue state (choices: the desk and `docgen issue` read the
same answers).
"""
