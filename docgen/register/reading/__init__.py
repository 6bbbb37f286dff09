"""The register read, never written: a document, a respondent's history, which document
a file is (queries), the desk's list and its named filters (listing, filters), the
matter's calendar and its feed (due, feed), and the municipality's year in figures
(year). Above every folder that writes.
"""
