"""Facts of plain text read one way for every service (pure, no I/O).

- :mod:`asat_corpus.text.numbers`: numbers as written (``2,000``, ``27.5``, ``twelve``) and their
  canonical text;
- :mod:`asat_corpus.text.figures`: money, percentages, durations, counts and numbers in running
  text, with exact values and spans (``$2.5b`` is 2,500,000,000 dollars);
- :mod:`asat_corpus.text.months`: the one table of month names and abbreviations, and ``1 July
  2023`` / ``1 Jul 2023`` dates;
- :mod:`asat_corpus.text.stopwords`: the one stopword list and its named variants;
- :mod:`asat_corpus.text.abn`: the Australian Business Number's modulus-89 checksum and printed
  form (extraction checks suppliers' ABNs with it, accounts checks clients').
"""
