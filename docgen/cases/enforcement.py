"""Case parts of the enforcement kinds under § 228-79C: violations and remedies."""

from __future__ import annotations

from docgen.cases.common import IsoDate, Line, Model, Text, cited


class Violation(Model):
    provision: Line = cited("§ 228-79C(1)(c)", "the provision of the article violated")
    nature: Text = cited("§ 228-79C(1)(c)", "what the violation is")
    observed: IsoDate = cited("§ 228-79C(1)(c)", "date the violation was observed")
    location: Text | None = cited("§ 228-79C(1)(c)", "where on the site", default=None)


class Remedy(Model):
    measure: Text = cited("§ 228-79C(1)(d)", "the remedial measure necessary to comply")
    due: IsoDate = cited("§ 228-79C(1)(d)", "date by which the measure must be complete")
