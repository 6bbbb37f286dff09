"""A draft issued from the desk (issue_page), in a rendering process or through the job
queue (queued).
"""
