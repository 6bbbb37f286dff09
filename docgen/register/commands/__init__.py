"""The register's commands, attached to the main ``docgen`` group by docgen.cli, each
module named for what it commands: a document's (documents), inspections', the
contractors' certifications (certify), appeals and extensions (appeals), the steps
after the notice (after_notice), the SWPPP, fees and the year (swppp), and the demo's
register (demo). Thin shells over the folders below: parse, call, print.
"""
