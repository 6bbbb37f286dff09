"""Issued documents in the browser: the register's list (register_list), one
document's page (document_page) with the forms that record what happened to it
(record_forms, appeal_forms) and what may be done from it (actions), and the verify
page (verify_page).
"""
