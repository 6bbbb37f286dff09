"""What every document in the register keeps to, whoever records it: its number
(numbering), its copies and its parts stored beside it (copies, parts), who certified it
through an invitation (certifiers), and how a step finds it by number and knows whether it
is still in effect (rows). Above storage/; every folder that writes stands on it.
"""
