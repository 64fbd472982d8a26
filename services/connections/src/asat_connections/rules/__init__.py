"""Pure rules of the connectors: no network, no database, no clock (times are arguments).

``oauth`` (PKCE and ``state``), ``retry`` (what to do after a 429, a 5xx or a timeout),
``tokens`` (when a token is due for refresh), ``bills`` (a transaction as a Xero bill, the
line-amount type, finding a bill created before), ``companies`` (a HubSpot company as a client:
the ABN property, ABN acceptance, the same client), ``scopes`` (what a token lacks).
"""
