"""What every page of the desk stands on: its tables (database), who may do what
(auth), the municipality's clock (clock), a kind's form (forms), what every page
shares: the visitor, CSRF checks, templates, headers (web), and what an issued
document offers (offers). The lowest of the desk's folders.
"""
