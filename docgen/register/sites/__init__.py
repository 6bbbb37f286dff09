"""A site's own record beside the enforcement: the inspector's log book (logbook) and the
contractors who certify for themselves (invitations, invitation_mail,
certification_sets).
"""
