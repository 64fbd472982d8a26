"""Push reviewed transactions to a client's Xero organisation as draft bills, with their documents.

Shapes: ``xero_accounting.yaml`` (XeroAPI/Xero-OpenAPI): ``GET``/``PUT /Contacts`` (``searchTerm``),
``GET /Invoices`` (``ContactIDs``, ``InvoiceNumbers``, ``Statuses``, ``createdByMyApp``), ``PUT
/Invoices`` (``summarizeErrors``, the ``Idempotency-Key`` header), ``PUT
/Invoices/{InvoiceID}/Attachments/{FileName}`` (the file's bytes as the body), the ``Error``
(``ValidationException``) reply.

For each transaction, in order:

1. **Ledger first.** A transaction with a pushed row is not sent again (its Xero invoice id is
   kept; only a missing attachment is attached). Otherwise the row is claimed (atomically: a push
   of the same transaction under way elsewhere is not doubled).
2. **Checked.** Not reviewed, a credit note, no supplier, total or date: refused with the reason
   (``rules.bills.bill_problem``).
3. **Contact** found by name (``searchTerm``, then an exact, case-insensitive match) or created
   once (with the ABN as ``TaxNumber`` when valid); remembered for the rest of the push.
4. **Bill** ``PUT /Invoices`` with an idempotency key kept in the ledger. When a previous attempt
   may have created it (a timeout or a 5xx after the request went out, a push that stopped
   midway) or Xero answers that it is a duplicate, the organisation is searched first (bills this
   app created for that contact and number) and a match is adopted instead of creating another.
   A 429 is waited out (``Retry-After``); a 401 refreshes the token once.
5. **Attachment** ``PUT /Invoices/{id}/Attachments/{file name}`` with the original PDF or image.

A failure of one transaction is reported (``retryable`` when pushing again may succeed) and the
others go on; a rate limit longer than we wait, or a connection needing re-authorisation, stops
the push and reports the rest as not attempted.
"""

from __future__ import annotations

import logging
import re
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from asat_connections.errors import (
    ConnectionsError,
    NeedsReauthorisationError,
    NotConnectedError,
    ProviderRefusedError,
    ProviderUnavailableError,
    SourceNotFoundError,
    SourceUnavailableError,
)
from asat_connections.model import (
    PushOutcome,
    PushRecord,
    PushReport,
    PushResult,
    PushState,
)
from asat_connections.rules.bills import (
    LIVE_STATUSES,
    bill_payload,
    bill_problem,
    choose_line_amount_type,
    pick_existing_bill,
)
from asat_connections.store import ConnectionsStore
from asat_connections.transactions import SourceTransaction, TransactionSource
from asat_connections.xero import XeroConnector, XeroSession
from asat_corpus.text.abn import abn_is_valid

log = logging.getLogger("asat_connections.xero_push")

CREATE_ROUNDS = 3  # creates of one bill per push, each after checking Xero for an earlier one
STALE_CLAIM = timedelta(minutes=10)  # a pending row older than this is a push that stopped midway
_DUPLICATE = re.compile(r"already (exists|been|assigned)|must be unique|duplicate", re.IGNORECASE)
_SAFE_FILE = re.compile(r"[^A-Za-z0-9._-]+")


class XeroValidationError(Exception):
    """Xero refused what was sent (400 ``ValidationException``: a bill, a contact); ``duplicate``
    when its messages say it exists already."""

    def __init__(self, message: str, duplicate: bool) -> None:
        super().__init__(message)
        self.duplicate = duplicate


@dataclass
class _Run:
    """One push's memory: contacts found or created, by name."""

    contacts: dict[str, str]
    created: int = 0


class XeroPusher:
    def __init__(self, connector: XeroConnector, store: ConnectionsStore, source: TransactionSource) -> None:
        self.connector = connector
        self.store = store
        self.source = source

    @property
    def _now(self) -> datetime:
        return self.connector.clock()

    def pushed(self, practice_id: int, transaction_ids: Sequence[UUID]) -> dict[UUID, PushRecord]:
        """The ledger rows of ``transaction_ids`` (for the pages: "in Xero", the problem of a failed one)."""
        return self.store.push_records(practice_id, transaction_ids)

    def push(self, practice_id: int, client_id: int, transaction_ids: Sequence[UUID]) -> PushReport:
        """Push ``transaction_ids`` (in order, each once) to ``client_id``'s organisation."""
        connection = self.connector.connection(practice_id, client_id)
        if connection is None:
            raise NotConnectedError(
                f"client {client_id} is not connected to Xero: connect it in Settings → Connections"
            )
        session = self.connector.session(practice_id, client_id)
        ids = list(dict.fromkeys(transaction_ids))
        records = self.store.push_records(practice_id, ids)
        transactions = self.source.transactions(practice_id, [i for i in ids if not _done(records.get(i))])
        run = _Run(contacts={})
        outcomes: list[PushOutcome] = []
        stopped: ConnectionsError | None = None
        retry_at = None
        for tid in ids:
            if stopped is not None:
                outcomes.append(
                    PushOutcome(tid, PushResult.FAILED, message=f"not attempted: {stopped}", retryable=True)
                )
                continue
            try:
                outcome = self._push_one(practice_id, session, tid, records.get(tid), transactions.get(tid), run)
            except (NeedsReauthorisationError, NotConnectedError) as exc:
                stopped = exc
                outcome = PushOutcome(tid, PushResult.FAILED, message=str(exc), retryable=False)
            except ProviderUnavailableError as exc:
                if exc.retry_at is not None:  # rate-limited beyond what we wait: stop, say when
                    stopped, retry_at = exc, exc.retry_at
                outcome = PushOutcome(tid, PushResult.FAILED, message=str(exc), retryable=True)
            except (SourceUnavailableError, SourceNotFoundError, ProviderRefusedError) as exc:
                outcome = PushOutcome(tid, PushResult.FAILED, message=str(exc), retryable=True)
            log.info(
                "xero push: practice %s client %s transaction %s: %s", practice_id, client_id, tid, outcome.result.value
            )
            outcomes.append(outcome)
        return PushReport(
            client_id=client_id,
            tenant_id=session.tenant.tenant_id,
            outcomes=tuple(outcomes),
            contacts_created=run.created,
            retry_at=retry_at,
        )

    # --- one transaction -------------------------------------------------------------------------

    def _push_one(
        self,
        practice_id: int,
        session: XeroSession,
        tid: UUID,
        record: PushRecord | None,
        t: SourceTransaction | None,
        run: _Run,
    ) -> PushOutcome:
        client_id = session.client_id
        if record is not None and record.state is PushState.PUSHED:
            if record.client_id != client_id:
                return PushOutcome(
                    tid,
                    PushResult.ALREADY_PUSHED,
                    invoice_id=record.invoice_id,
                    message=f"pushed before to client {record.client_id}'s organisation; not pushed again",
                )
            if record.attachment_id is not None or t is None:
                return PushOutcome(tid, PushResult.ALREADY_PUSHED, record.invoice_id, record.attachment_id)
            return self._attach_only(practice_id, session, record, t)
        if t is None:
            return PushOutcome(tid, PushResult.REFUSED, message="the practice has no such transaction")
        problem = bill_problem(t)
        if problem is not None:
            return PushOutcome(tid, PushResult.REFUSED, message=f"not pushed: {problem}")
        if (
            record is not None
            and record.client_id != client_id
            and (record.ambiguous or record.state is PushState.PENDING)
        ):
            return PushOutcome(
                tid,
                PushResult.REFUSED,
                message=(
                    f"an earlier push to client {record.client_id}'s organisation may have created this bill: push it "
                    "to that client again (Xero is checked first)"
                ),
            )
        warnings = tuple(w for w in (choose_line_amount_type(t).warning,) if w)
        contact_id, contact_created = self._contact(session, t, run)
        now = self._now
        claim = PushRecord(
            transaction_id=tid,
            client_id=client_id,
            tenant_id=session.tenant.tenant_id,
            state=PushState.PENDING,
            invoice_id=None,
            contact_id=contact_id,
            attachment_id=None,
            idempotency_key=f"asat-bill-{tid}-{uuid.uuid4().hex[:12]}",
            attempts=1,
            ambiguous=False,
            problem="",
            retryable=False,
            updated_at=now,
        )
        stored, claimed = self.store.claim_push(practice_id, claim, now - STALE_CLAIM)
        if not claimed:
            if stored.state is PushState.PUSHED:
                return PushOutcome(tid, PushResult.ALREADY_PUSHED, stored.invoice_id, stored.attachment_id)
            return PushOutcome(
                tid,
                PushResult.FAILED,
                message="another push of this transaction is under way: look again in a few minutes",
                retryable=True,
            )
        stored = replace(stored, contact_id=contact_id)
        try:
            invoice_id, result = self._bill(practice_id, session, t, stored)
        except ConnectionsError as exc:  # stopped midway: leave the row failed (and ambiguous if it was)
            latest = self.store.push_records(practice_id, [tid]).get(tid)
            if latest is not None and latest.state is PushState.PENDING:
                self._fail(practice_id, latest, str(exc), retryable=True, ambiguous=latest.ambiguous)
            raise
        if invoice_id is None:
            latest = self.store.push_records(practice_id, [tid])[tid]
            return PushOutcome(
                tid,
                PushResult.FAILED,
                message=latest.problem,
                retryable=latest.retryable,
                contact_created=contact_created,
            )
        pushed = replace(
            stored, state=PushState.PUSHED, invoice_id=invoice_id, ambiguous=False, problem="", retryable=False,
            updated_at=self._now,
        )  # fmt: skip
        self.store.save_push(practice_id, pushed)
        attachment_id, message = self._attach(practice_id, session, pushed, t, look_first=result is PushResult.FOUND)
        return PushOutcome(
            tid,
            result,
            invoice_id=invoice_id,
            attachment_id=attachment_id,
            contact_created=contact_created,
            message=message,
            retryable=attachment_id is None,
            warnings=warnings,
        )

    def _bill(
        self, practice_id: int, session: XeroSession, t: SourceTransaction, record: PushRecord
    ) -> tuple[str | None, PushResult]:
        """The bill's Xero invoice id and whether it was created or found; (None, FAILED) with the
        ledger row saved as failed."""
        contact_id = record.contact_id or ""
        if record.ambiguous:
            found = pick_existing_bill(self._find_bills(session, contact_id, t), t, contact_id)
            if found is not None:
                return found, PushResult.FOUND
        payload = bill_payload(t, contact_id)
        for round_no in range(1, CREATE_ROUNDS + 1):
            try:
                return self._create_bill(session, payload, record.idempotency_key), PushResult.CREATED
            except XeroValidationError as exc:
                if exc.duplicate:
                    found = pick_existing_bill(self._find_bills(session, contact_id, t), t, contact_id)
                    if found is not None:
                        return found, PushResult.FOUND
                    problem = (
                        f"Xero answered that this bill already exists ({exc}), but no bill this app created matches "
                        "it: look for it in Xero before pushing again"
                    )
                else:
                    problem = f"Xero refused the bill: {exc}. Correct the transaction, then push again"
                self._fail(practice_id, record, problem, retryable=False, ambiguous=False)
                return None, PushResult.FAILED
            except ProviderUnavailableError as exc:
                if not exc.ambiguous:
                    self._fail(practice_id, record, str(exc), retryable=True, ambiguous=record.ambiguous)
                    raise
                # The request went out and no answer came back (or a 5xx): it may have been created.
                record = replace(record, ambiguous=True, problem=str(exc), updated_at=self._now)
                self.store.save_push(practice_id, record)
                found = pick_existing_bill(self._find_bills(session, contact_id, t), t, contact_id)
                if found is not None:
                    return found, PushResult.FOUND
                if round_no == CREATE_ROUNDS:
                    self._fail(
                        practice_id,
                        record,
                        f"{exc}; Xero has no such bill yet, so pushing again will create it once",
                        retryable=True,
                        ambiguous=True,
                    )
                    return None, PushResult.FAILED
                self.connector.http.sleep(self.connector.http.policy.backoff(round_no))
        return None, PushResult.FAILED  # pragma: no cover - the loop returns

    def _fail(self, practice_id: int, record: PushRecord, problem: str, retryable: bool, ambiguous: bool) -> None:
        self.store.save_push(
            practice_id,
            replace(
                record,
                state=PushState.FAILED,
                problem=problem,
                retryable=retryable,
                ambiguous=ambiguous,
                updated_at=self._now,
            ),
        )

    # --- Xero calls ------------------------------------------------------------------------------

    def _contact(self, session: XeroSession, t: SourceTransaction, run: _Run) -> tuple[str, bool]:
        name = t.supplier_name or ""
        key = name.casefold()
        if key in run.contacts:
            return run.contacts[key], False
        found = self._find_contact(session, name)
        created = False
        if found is None:
            try:
                found = self._create_contact(session, name, t.supplier_abn)
                created = True
            except ProviderUnavailableError as exc:
                if not exc.ambiguous:
                    raise
                found = self._find_contact(session, name)  # created after all?
                if found is None:
                    found = self._create_contact(session, name, t.supplier_abn)
                    created = True
            except XeroValidationError:  # the name is taken after all (another push created it meanwhile)
                found = self._find_contact(session, name)
                if found is None:
                    raise ProviderRefusedError(
                        f"Xero refused to create contact {name!r} and has no contact of that name", 400
                    ) from None
        if created:
            run.created += 1
        run.contacts[key] = found
        return found, created

    def _find_contact(self, session: XeroSession, name: str) -> str | None:
        response = session.request("GET", "/Contacts", idempotent=True, params={"searchTerm": name, "page": 1})
        body = _ok_json(response, "GET /Contacts")
        wanted = name.casefold()
        for contact in body.get("Contacts") or []:
            if not isinstance(contact, Mapping):
                continue
            if str(contact.get("Name", "")).casefold() == wanted and contact.get("ContactStatus", "ACTIVE") == "ACTIVE":
                return str(contact["ContactID"])
        return None

    def _create_contact(self, session: XeroSession, name: str, abn: str | None) -> str:
        contact: dict[str, Any] = {"Name": name}
        if abn and abn_is_valid(abn):
            contact["TaxNumber"] = abn
        response = session.request("PUT", "/Contacts", idempotent=False, json_body={"Contacts": [contact]})
        if response.status_code == 400:
            message, duplicate = _validation(response)
            raise XeroValidationError(message, duplicate)
        body = _ok_json(response, "PUT /Contacts")
        contacts = body.get("Contacts") or []
        if not contacts or not isinstance(contacts[0], Mapping) or not contacts[0].get("ContactID"):
            raise ProviderRefusedError("Xero's PUT /Contacts answered without a ContactID", response.status_code)
        return str(contacts[0]["ContactID"])

    def _find_bills(self, session: XeroSession, contact_id: str, t: SourceTransaction) -> list[Mapping[str, Any]]:
        params: dict[str, Any] = {
            "ContactIDs": contact_id,
            "Statuses": ",".join(LIVE_STATUSES),
            "createdByMyApp": "true",
            "page": 1,
        }
        if t.invoice_number:
            params["InvoiceNumbers"] = t.invoice_number
        response = session.request("GET", "/Invoices", idempotent=True, params=params)
        body = _ok_json(response, "GET /Invoices")
        return [i for i in body.get("Invoices") or [] if isinstance(i, Mapping)]

    def _create_bill(self, session: XeroSession, payload: Mapping[str, Any], key: str) -> str:
        response = session.request(
            "PUT",
            "/Invoices",
            idempotent=False,
            params={"summarizeErrors": "true"},
            json_body={"Invoices": [payload]},
            headers={"Idempotency-Key": key},
        )
        if response.status_code == 400:
            message, duplicate = _validation(response)
            raise XeroValidationError(message, duplicate)
        body = _ok_json(response, "PUT /Invoices")
        invoices = body.get("Invoices") or []
        first = invoices[0] if invoices and isinstance(invoices[0], Mapping) else {}
        errors = first.get("ValidationErrors") or []
        if first.get("HasErrors") or errors:
            text = "; ".join(str(e.get("Message", "")) for e in errors if isinstance(e, Mapping)) or "validation errors"
            raise XeroValidationError(text, bool(_DUPLICATE.search(text)))
        if not first.get("InvoiceID"):
            raise ProviderRefusedError("Xero's PUT /Invoices answered without an InvoiceID", response.status_code)
        return str(first["InvoiceID"])

    def _attach_only(
        self, practice_id: int, session: XeroSession, record: PushRecord, t: SourceTransaction
    ) -> PushOutcome:
        attachment_id, message = self._attach(practice_id, session, record, t, look_first=True)
        result = PushResult.ATTACHED if attachment_id is not None else PushResult.FAILED
        return PushOutcome(
            record.transaction_id,
            result,
            record.invoice_id,
            attachment_id,
            message=message or "pushed before; its document is now attached",
            retryable=attachment_id is None,
        )

    def _attach(
        self, practice_id: int, session: XeroSession, record: PushRecord, t: SourceTransaction, look_first: bool
    ) -> tuple[str | None, str]:
        """Attach the transaction's document to its bill; (attachment id, "") or (None, why)."""
        invoice_id = record.invoice_id or ""
        try:
            document = self.source.document(practice_id, t.document_id)
            filename = attachment_name(document.filename, document.media_type)
            attachment_id = self._existing_attachment(session, invoice_id, filename) if look_first else None
            if attachment_id is None:
                attachment_id = self._upload(session, invoice_id, filename, document.media_type, document.content)
        except (ProviderUnavailableError, ProviderRefusedError, SourceUnavailableError, SourceNotFoundError) as exc:
            problem = f"the bill is in Xero but its document was not attached ({exc}): push again to attach it"
            self.store.save_push(practice_id, replace(record, problem=problem, retryable=True, updated_at=self._now))
            return None, problem
        self.store.save_push(
            practice_id, replace(record, attachment_id=attachment_id, problem="", retryable=False, updated_at=self._now)
        )
        return attachment_id, ""

    def _existing_attachment(self, session: XeroSession, invoice_id: str, filename: str) -> str | None:
        response = session.request("GET", f"/Invoices/{invoice_id}/Attachments", idempotent=True)
        body = _ok_json(response, "GET /Invoices/{InvoiceID}/Attachments")
        for item in body.get("Attachments") or []:
            if isinstance(item, Mapping) and item.get("FileName") == filename and item.get("AttachmentID"):
                return str(item["AttachmentID"])
        return None

    def _upload(self, session: XeroSession, invoice_id: str, filename: str, media_type: str, content: bytes) -> str:
        path = f"/Invoices/{invoice_id}/Attachments/{quote(filename)}"
        try:
            response = session.request(
                "PUT", path, idempotent=False, content=content, headers={"Content-Type": media_type}
            )
        except ProviderUnavailableError as exc:
            if not exc.ambiguous:
                raise
            found = self._existing_attachment(session, invoice_id, filename)
            if found is not None:
                return found
            response = session.request(
                "PUT", path, idempotent=False, content=content, headers={"Content-Type": media_type}
            )
        body = _ok_json(response, "PUT /Invoices/{InvoiceID}/Attachments/{FileName}")
        items = body.get("Attachments") or []
        if not items or not isinstance(items[0], Mapping) or not items[0].get("AttachmentID"):
            raise ProviderRefusedError(
                "Xero's attachment upload answered without an AttachmentID", response.status_code
            )
        return str(items[0]["AttachmentID"])


def _done(record: PushRecord | None) -> bool:
    return record is not None and record.state is PushState.PUSHED and record.attachment_id is not None


def attachment_name(filename: str, media_type: str) -> str:
    """A file name Xero accepts in the URL path: letters, digits, ``._-``; an extension kept or added."""
    stem = _SAFE_FILE.sub("_", filename.strip()).strip("._") or "document"
    if "." not in stem:
        stem += {"application/pdf": ".pdf", "image/png": ".png", "image/jpeg": ".jpg", "image/tiff": ".tif"}.get(
            media_type, ""
        )
    return stem[:200]


def _ok_json(response: httpx.Response, what: str) -> Mapping[str, Any]:
    if response.status_code != 200:
        raise ProviderRefusedError(
            f"Xero answered HTTP {response.status_code} to {what}: {_message(response)}", response.status_code
        )
    try:
        body = response.json()
    except ValueError:
        raise ProviderRefusedError(
            f"Xero answered {what} with something other than JSON", response.status_code
        ) from None
    if not isinstance(body, Mapping):
        raise ProviderRefusedError(f"Xero answered {what} with JSON that is not an object", response.status_code)
    return body


def _message(response: httpx.Response) -> str:
    try:
        body = response.json()
    except ValueError:
        return "no JSON body"
    if isinstance(body, Mapping):
        for key in ("Message", "Detail", "Title"):
            if isinstance(body.get(key), str):
                return str(body[key])[:300]
    return "no message"


def _validation(response: httpx.Response) -> tuple[str, bool]:
    """The messages of a 400 ``ValidationException`` and whether they say "duplicate"."""
    try:
        body = response.json()
    except ValueError:
        return f"HTTP {response.status_code}", False
    messages: list[str] = []
    if isinstance(body, Mapping):
        for element in body.get("Elements") or []:
            if isinstance(element, Mapping):
                for error in element.get("ValidationErrors") or []:
                    if isinstance(error, Mapping) and error.get("Message"):
                        messages.append(str(error["Message"]))
        if not messages and body.get("Message"):
            messages.append(str(body["Message"]))
    text = "; ".join(messages)[:500] or f"HTTP {response.status_code}"
    return text, bool(_DUPLICATE.search(text))
