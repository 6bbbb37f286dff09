"""The matter: a document issued into the register in one transaction (issuing; its
signature and public check: checks; counsel's final: finals; a database lost on the
way: lost) and what happens to it after: its service (service, mailing, receipts),
inspections and the notices they make (inspections, answers), a later date granted
(extensions), a stop-work order lifted (lifting).
"""
