"""Respondents on the desk: a respondent's page (respondent_pages) and older convictions
imported from a CSV (history_import).
"""
