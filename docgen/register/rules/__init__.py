"""What every document in the register keeps to, whoever records it: its number
(numbering), its copies and its parts stored beside it (copies, parts) and who
certified it through an invitation (certifiers). Above storage/; every folder that
writes stands on it.
"""
