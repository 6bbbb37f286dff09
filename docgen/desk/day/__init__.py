"""The day's work: what is due (due), the day's mailing list (mailing) and the
municipality's year (year_page).
"""
