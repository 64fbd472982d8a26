"""The spans every generation test offers (test data in the shape of ITAA 1997 s 328-110)."""

from __future__ import annotations

from asat_research.generation.port import NumberedSpan

QUESTION = "What aggregated turnover threshold made a small business entity in 2014-15?"
LABEL = "ITAA 1997 s 328-110 [in force 2012-04-15 to 2016-06-30, C2015C00285]"

S1 = NumberedSpan(
    "S1",
    "itaa1997-s328-110@C2015C00285#s1",
    "itaa1997-s328-110@C2015C00285",
    LABEL,
    "(1) You are a small business entity for an income year (the current year) if: "
    "(a) you carry on a business in the current year; and",
)
S2 = NumberedSpan(
    "S2",
    "itaa1997-s328-110@C2015C00285#s4",
    "itaa1997-s328-110@C2015C00285",
    LABEL,
    "(4) You carry on a business in the current year if you are winding up a business you previously carried on.",
)
S3 = NumberedSpan(
    "S3",
    "itaa1997-s328-110@C2015C00285#s2",
    "itaa1997-s328-110@C2015C00285",
    LABEL,
    "(b) your aggregated turnover for the previous income year was less than $2 million.",
)
OFFERED = (S1, S2, S3)  # pass 1
SELECTED = (S1, S3)  # pass 2: S2 was shown in pass 1 but is not offered in pass 2
