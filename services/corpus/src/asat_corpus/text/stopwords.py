"""The one English stopword list, and the variants its users need, named (lower-case words).

- ``FUNCTION_WORDS``: articles, pronouns, auxiliaries, conjunctions and the plainest
  prepositions, words that never say what a provision is about. The BM25 tokenizer drops these
  and nothing else.
- ``MEANINGFUL_FUNCTION_WORDS``: function words that can change what a provision says:
  modality (``may``, ``must``, ``shall``), negation (``not``, ``no``, ``never``), quantity
  (``any``, ``all``, ``each``, ``only``), degree (``more``, ``less``) and relation (``under``,
  ``over``, ``per``). Search keeps them as terms (``must`` is not ``may``); a word-overlap check
  leaves them out of the content words, reading negation on its own.
- ``QUESTION_STOPWORDS``: ``FUNCTION_WORDS`` and the words every tax agent's question carries
  (``client``, ``claim``), which say nothing of its topic.
"""

from __future__ import annotations

FUNCTION_WORDS = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "been",
        "being",
        "but",
        "by",
        "can",
        "could",
        "did",
        "do",
        "does",
        "doing",
        "for",
        "from",
        "had",
        "has",
        "have",
        "having",
        "he",
        "her",
        "hers",
        "him",
        "his",
        "how",
        "i",
        "if",
        "in",
        "into",
        "is",
        "it",
        "its",
        "itself",
        "me",
        "my",
        "of",
        "on",
        "or",
        "our",
        "ours",
        "she",
        "so",
        "such",
        "than",
        "that",
        "the",
        "their",
        "theirs",
        "them",
        "then",
        "there",
        "these",
        "they",
        "this",
        "those",
        "to",
        "too",
        "us",
        "was",
        "we",
        "were",
        "what",
        "when",
        "where",
        "which",
        "while",
        "who",
        "whom",
        "whose",
        "why",
        "will",
        "with",
        "would",
        "you",
        "your",
        "yours",
    ]
)

MEANINGFUL_FUNCTION_WORDS = frozenset(
    [
        # modality
        "may",
        "might",
        "must",
        "shall",
        "should",
        # negation
        "not",
        "no",
        "nor",
        "never",
        "cannot",
        # quantity
        "all",
        "any",
        "each",
        "every",
        "some",
        "other",
        "same",
        "own",
        "only",
        # degree
        "more",
        "most",
        "less",
        "least",
        "very",
        "just",
        "also",
        # relation
        "about",
        "under",
        "over",
        "onto",
        "upon",
        "up",
        "down",
        "out",
        "per",
    ]
)

QUESTION_STOPWORDS = FUNCTION_WORDS | frozenset(["client", "clients", "claim"])
