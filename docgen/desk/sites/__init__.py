"""A site's pages: its contractors' certifications (certify, certify_work), its SWPPP
(swppp_site, swppp_pages), its fees (fees_pages) and its log book (logbook).
"""
