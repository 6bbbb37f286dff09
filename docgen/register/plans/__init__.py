"""Before the soil moves: the SWPPP received and reviewed item by item (swppp), its
approval or return letter (swppp_letters), and the statement of fees for a site's
reviews and inspections with the payments against it (fees).
"""
