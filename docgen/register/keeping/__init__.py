"""Keeping the register: consistent backups while it is in use (maintenance) and a
restore that never gives a number twice (restores: the register issues nothing until
the numbers used after the backup are accounted for, which issuing checks).
"""
