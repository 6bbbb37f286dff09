"""The register's storage, the lowest of its folders: where it lives and how it is
opened (db), its tables (models), the frozen records it hands back (records), the
audit trail written with every change (audit), service as the recorded events make it
(standing) and PostgreSQL's own client programs (pgclient). It imports none of the
register's other folders.
"""
