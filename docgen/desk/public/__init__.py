"""The pages open without an account: the public check every issued document prints
(public_check) and a firm's own certification through its link (certify_public).
"""
