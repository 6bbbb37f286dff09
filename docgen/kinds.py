"""The document kinds by name, each with the module that defines it (docgen.documents).

The one list of kinds: the law packs name the kinds they provide from it, and
docgen.documents imports a kind's module from it the first time the kind is looked up.
"""

from __future__ import annotations

MODULES = {
    "notice-of-violation": "docgen.documents.notice_of_violation",
    "stop-work-order": "docgen.documents.stop_work_order",
    "penalty-statement": "docgen.documents.penalty_statement",
    "contractor-certification": "docgen.documents.contractor_certification",
    "maintenance-easement": "docgen.documents.maintenance_easement",
    "maintenance-agreement": "docgen.documents.maintenance_agreement",
    "affidavit-of-service": "docgen.documents.affidavit_of_service",
    "stop-work-lifted": "docgen.documents.stop_work_lifted",
    "mailing-list": "docgen.documents.mailing_list",
    "inspection-report": "docgen.documents.inspection_report",
    "notice-of-deficiency": "docgen.documents.notice_of_deficiency",
    "approval-of-corrected-work": "docgen.documents.approval_of_corrected_work",
    "report-requirement": "docgen.documents.report_requirement",
    "return-receipt": "docgen.documents.return_receipt",
    "appeal-acknowledgment": "docgen.documents.appeal_acknowledgment",
    "appeal-hearing": "docgen.documents.appeal_hearing",
    "appeal-decision": "docgen.documents.appeal_decision",
    "extension-letter": "docgen.documents.extension_letter",
    "occupancy-order": "docgen.documents.occupancy_order",
    "occupancy-release": "docgen.documents.occupancy_release",
    "restoration-notice": "docgen.documents.restoration_notice",
    "restoration-cost": "docgen.documents.restoration_cost",
    "lien-notice": "docgen.documents.lien_notice",
    "lien-release": "docgen.documents.lien_release",
    "swppp-approval": "docgen.documents.swppp_approval",
    "swppp-return": "docgen.documents.swppp_return",
    "fee-statement": "docgen.documents.fee_statement",
    "municipal-year": "docgen.documents.municipal_year",
}
BUNDLES = {"packet": "docgen.documents.packet"}
