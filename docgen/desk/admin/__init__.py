"""Who may sign in, kept by an administrator: the accounts (accounts, also behind
`docgen users`) and their page (users).
"""
