"""What each synthetic document says: parties, numbers, dates, items, amounts; its layout as rows; its truth."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal

from asat_corpus.text.abn import abn_is_valid, complete_abn, format_abn
from asat_extraction.synthetic.layout import Cell, Sheet

CENT = Decimal("0.01")
SUPPLIERS = [
    "Harbourside Plumbing Pty Ltd", "Bean There Cafe", "Coastal Electrical Services", "Greenleaf Landscaping Pty Ltd",
    "Southern Cross Office Supplies", "Blue Gum Accounting", "Redback IT Solutions Pty Ltd", "Wattle & Co Stationers",
    "Kookaburra Catering", "Outback Hardware Pty Ltd", "Metro Courier Services", "Brightside Cleaning Co.",
    "Summit Legal Pty Ltd", "Riverbank Veterinary Clinic", "Ironbark Joinery", "Tidal Print and Design",
    "Banksia Building Supplies Pty Ltd", "Jacaranda Florist", "Magpie Motors Pty Ltd", "Sunburnt Country Tyres",
]  # fmt: skip
FOREIGN = [("Cloudsoft Inc.", "500 Market Street", "San Francisco CA 94105", "USD"),
           ("Kiwi Analytics Limited", "12 Queen Street", "Auckland 1010", "NZD"),
           ("Thames Design Ltd", "8 Fleet Street", "London EC4Y 1AA", "GBP"),
           ("Berliner Software GmbH", "Torstrasse 140", "10119 Berlin", "EUR")]  # fmt: skip
BUYERS = ["Northwind Traders Pty Ltd", "Jane Citizen", "Acacia Dental Group", "Fernhill Consulting Pty Ltd",
          "Mulga Bill Transport", "Lorikeet Early Learning"]  # fmt: skip
STREETS = ["George Street", "Pitt St", "Collins Street", "Queen St", "Hay Street", "King William Rd", "Smith Rd"]
SUBURBS = [("Sydney", "NSW", "2000"), ("Melbourne", "VIC", "3000"), ("Brisbane", "QLD", "4000"),
           ("Perth", "WA", "6000"), ("Adelaide", "SA", "5000"), ("Hobart", "TAS", "7000"), ("Parramatta", "NSW", "2150")]  # fmt: skip
GOODS = [("Copper pipe 15mm", 8, 30), ("Labour - licensed plumber", 90, 140), ("Ceiling fan install", 150, 300),
         ("A4 copy paper 5 ream box", 25, 45), ("Toner cartridge black", 60, 140), ("Garden maintenance", 80, 200),
         ("Mulch 1 cubic metre", 60, 90), ("Network switch 24 port", 250, 600), ("Site visit and assessment", 120, 220),
         ("Catering platter large", 70, 160), ("Courier delivery metro", 15, 40), ("Office cleaning monthly", 300, 700),
         ("Legal advice consultation", 250, 550), ("Vaccination C5", 80, 120), ("Custom bookshelf oak", 400, 1200),
         ("Business cards 500", 40, 90), ("Timber decking 90x19 per m", 6, 12), ("Floral arrangement", 60, 150),
         ("Logbook service", 250, 450), ("Tyre 205/55R16", 120, 220)]  # fmt: skip
FREE_GOODS = [("Milk 2L", 3, 5), ("Bread loaf", 4, 7), ("Fresh fruit box", 20, 45), ("Eggs dozen", 5, 9)]
CAFE = [("Flat White", 4, 6), ("Long Black", 4, 5), ("Banana Bread", 5, 7), ("Avocado Toast", 14, 21),
        ("Chai Latte", 5, 6), ("Bottled Water", 3, 5)]  # fmt: skip


def money(value: Decimal) -> str:
    return f"{value:,.2f}"


def cents(value: Decimal) -> Decimal:
    return value.quantize(CENT, rounding=ROUND_HALF_UP)


@dataclass
class Item:
    description: str
    quantity: int | None
    unit: Decimal | None
    amount: Decimal
    gst_free: bool = False


@dataclass
class Spec:
    """Everything one document says; ``truth`` is what a perfect extractor returns."""

    stem: str
    kind: str  # invoice | receipt | credit_note
    layout: str
    medium: str  # text_pdf | image_pdf | png | jpeg | eml_body | eml_attachment | txt
    supplier: str
    supplier_lines: list[str]
    abn: str | None
    currency: str
    registered: bool | None
    number: str
    issued: date
    date_style: str
    items: list[Item]
    gst: Decimal | None
    total: Decimal
    subtotal: Decimal | None
    gst_free_part: Decimal | None
    buyer: str | None = None
    buyer_abn: str | None = None
    po: str | None = None
    paid: Decimal | None = None
    due: date | None = None
    show_zero_gst: bool = False
    inclusive_items: bool = False
    features: list[str] = field(default_factory=list)

    def truth(self) -> dict[str, object]:
        sign = Decimal(-1) if self.kind == "credit_note" else Decimal(1)
        items: list[dict[str, object]] = []
        for item in self.items:
            entry: dict[str, object] = {"description": item.description, "amount": str(cents(sign * item.amount))}
            if item.quantity is not None:
                entry["quantity"] = str(item.quantity)
            if item.unit is not None:
                entry["unit_amount"] = str(cents(sign * item.unit))
            items.append(entry)
        gst: str | None = str(cents(sign * self.gst)) if self.gst is not None else None
        if self.gst is None and self.show_zero_gst:
            gst = "0.00"
        return {
            "kind": self.kind,
            "supplier_name": self.supplier,
            "supplier_abn": self.abn,
            "abn_valid": None if self.abn is None else abn_is_valid(self.abn),
            "invoice_number": self.number,
            "issue_date": self.issued.isoformat(),
            "currency": self.currency,
            "total_amount": str(cents(sign * self.total)),
            "gst_amount": gst,
            "gst_registered_supplier": self.registered,
            "line_items": items,
        }


def fmt_date(value: date, style: str) -> str:
    if style == "dmy":
        return value.strftime("%d/%m/%Y")
    if style == "dmy_short":
        return f"{value.day}/{value.month}/{value.strftime('%y')}"
    if style == "dmy_dash":
        return value.strftime("%d-%m-%Y")
    if style == "written":
        return f"{value.day} {value.strftime('%B %Y')}"
    if style == "written_short":
        return value.strftime("%d %b %Y")
    if style == "iso":
        return value.isoformat()
    if style == "mdy":
        return value.strftime("%m/%d/%Y")
    return f"{value.strftime('%B')} {value.day}, {value.year}"  # us_written


def random_abn(rng: random.Random, valid: bool = True) -> str:
    abn = complete_abn("".join(rng.choice("0123456789") for _ in range(9)))
    if valid:
        return abn
    position = rng.randrange(2, 11)
    digit = str((int(abn[position]) + rng.randrange(1, 10)) % 10)
    return abn[:position] + digit + abn[position + 1 :]


def make_spec(rng: random.Random, stem: str, kind: str, medium: str, layout: str, flavour: str) -> Spec:
    """A document of ``kind`` for ``medium``; ``flavour`` adds a feature (foreign, unregistered, ...)."""
    features = [flavour] if flavour != "plain" else []
    foreign = flavour == "foreign"
    registered: bool | None = True
    if foreign:
        name, street, town, currency = rng.choice(FOREIGN)
        supplier_lines = [name, street, town]
        abn = None
        registered = None
    else:
        name = rng.choice(CAFE_NAMES if layout == "thermal" else SUPPLIERS)
        suburb, state, postcode = rng.choice(SUBURBS)
        supplier_lines = [name, f"{rng.randint(1, 300)} {rng.choice(STREETS)}", f"{suburb} {state} {postcode}"]
        abn = random_abn(rng, valid=flavour != "bad_abn")
        currency = "AUD"
        if flavour == "unregistered":
            registered = False
    issued = date(2023, 7, 1) + timedelta(days=rng.randrange(0, 540))
    if flavour == "ambiguous_date":
        issued = issued.replace(day=rng.randint(1, 12))
        if issued.month == issued.day:
            issued = issued.replace(day=issued.day % 12 + 1)
    if foreign:
        date_style = rng.choice(["mdy", "us_written"]) if currency == "USD" else rng.choice(["written", "iso"])
    elif flavour == "ambiguous_date":
        date_style = rng.choice(["dmy", "dmy_short", "dmy_dash"])
    else:
        date_style = rng.choice(["dmy", "dmy", "dmy_short", "written", "written_short", "iso"])
    due = issued + timedelta(days=rng.choice([7, 14, 30]))
    if foreign and date_style == "mdy":
        due = due if due.day > 12 else due + timedelta(days=13 - due.day)

    catalogue = CAFE if layout == "thermal" else GOODS
    count = rng.randint(36, 52) if layout == "multipage" else rng.randint(1, 6)
    inclusive = kind == "receipt" or layout in ("thermal", "simple")
    items: list[Item] = []
    for _ in range(count):
        description, low, high = rng.choice(catalogue)
        unit = Decimal(rng.randint(low * 100, high * 100)) / 100
        quantity = rng.randint(1, 4) if layout not in ("simple",) else 1
        items.append(Item(description, quantity, unit, cents(unit * quantity)))
    if flavour == "gst_free" and not foreign:
        for _ in range(rng.randint(1, 2)):
            description, low, high = rng.choice(FREE_GOODS)
            unit = Decimal(rng.randint(low * 100, high * 100)) / 100
            items.append(Item(description, 1, unit, unit, gst_free=True))
    taxable = sum((i.amount for i in items if not i.gst_free), Decimal(0))
    free = sum((i.amount for i in items if i.gst_free), Decimal(0))
    charges_gst = registered is True
    if inclusive:
        total = taxable + free
        gst = cents(taxable / 11) if charges_gst else None
        subtotal = None
    else:
        subtotal = taxable + free
        gst = cents(taxable / 10) if charges_gst else None
        total = subtotal + (gst or Decimal(0))
    spec = Spec(
        stem=stem, kind=kind, layout=layout, medium=medium, supplier=name, supplier_lines=supplier_lines, abn=abn,
        currency=currency, registered=registered, number="", issued=issued, date_style=date_style, items=items,
        gst=gst, total=total, subtotal=subtotal, gst_free_part=free if free else None, due=due,
        inclusive_items=inclusive, features=features,
    )  # fmt: skip
    prefix = {"invoice": rng.choice(["INV-", "INV", "", "TI-"]), "receipt": rng.choice(["R", "RCT-", ""]),
              "credit_note": rng.choice(["CN-", "ADJ-"])}[kind]  # fmt: skip
    spec.number = f"{prefix}{rng.randint(1000, 99999):05d}" if prefix else str(rng.randint(10000, 999999))
    if layout != "thermal" and kind != "receipt":
        spec.buyer = rng.choice(BUYERS)
        if rng.random() < 0.6:
            spec.buyer_abn = random_abn(rng)
            spec.features.append("customer_abn")
        if rng.random() < 0.5:
            spec.po = rng.choice(["PO-", "PO", "4500"]) + str(rng.randint(10000, 99999))
            spec.features.append("po_number")
        if kind == "invoice" and rng.random() < 0.25:
            spec.paid = cents(total * Decimal(rng.choice(["0.25", "0.5"])))
            spec.features.append("balance_due")
    if flavour == "unregistered":
        spec.show_zero_gst = rng.random() < 0.5
    if spec.kind == "invoice" and spec.total >= 1000 and spec.buyer is None and registered:
        spec.buyer = rng.choice(BUYERS)
    return spec


CAFE_NAMES = ["Bean There Cafe", "The Daily Grind", "Magpie Espresso Bar", "Little Wattle Bakery", "Surf Side Kiosk"]


def _title(spec: Spec) -> str:
    if spec.kind == "credit_note":
        return "ADJUSTMENT NOTE" if spec.number.startswith("ADJ") else "CREDIT NOTE"
    if spec.kind == "receipt":
        return "TAX INVOICE / RECEIPT" if spec.registered else "RECEIPT"
    return "TAX INVOICE" if spec.registered else "INVOICE"


def _number_label(spec: Spec, rng: random.Random) -> str:
    if spec.kind == "credit_note":
        return (
            rng.choice(["Credit Note No:", "Credit Note Number:"])
            if spec.number.startswith("CN")
            else "Adjustment Note No:"
        )
    if spec.kind == "receipt":
        return rng.choice(["Receipt No:", "Receipt #", "Receipt Number:"])
    return rng.choice(["Invoice No:", "Invoice Number:", "Invoice #", "Tax Invoice No:"])


def _totals(spec: Spec, sheet: Sheet, rng: random.Random, label_x: float = 0.62) -> None:
    credit = spec.kind == "credit_note"
    cur = "" if spec.currency == "AUD" else f"{spec.currency} "
    sym = "$" if spec.currency in ("AUD", "USD", "NZD") else ""

    def amount(value: Decimal) -> str:
        text = f"{sym}{money(value)}"
        return f"-{text}" if credit and rng.random() < 0.5 else (f"{text} CR" if credit else text)

    if spec.subtotal is not None:
        sheet.add(Cell("Subtotal" if spec.gst is not None or not spec.registered else "Total ex GST", label_x),
                  Cell(amount(spec.subtotal), 1.0, "r"), gap=0.5)  # fmt: skip
    if spec.gst_free_part is not None and not spec.inclusive_items:
        sheet.add(Cell("GST-free items", label_x), Cell(amount(spec.gst_free_part), 1.0, "r"))
    if spec.gst is not None and not spec.inclusive_items:
        sheet.add(Cell(rng.choice(["GST", "GST 10%", "Total GST"]), label_x), Cell(amount(spec.gst), 1.0, "r"))
    elif spec.show_zero_gst:
        sheet.add(Cell("GST", label_x), Cell(f"{sym}0.00", 1.0, "r"))
    total_label = "Total credit" if credit else "Total"
    if spec.gst is not None and rng.random() < 0.6:
        total_label += rng.choice([" (inc GST)", " inc. GST", " including GST"])
    if cur:
        total_label += f" {cur.strip()}"
    sheet.add(Cell(total_label, label_x), Cell(amount(spec.total), 1.0, "r"), style="bold")
    if spec.gst is not None and spec.inclusive_items:
        phrase = rng.choice(["Includes GST of", "Total includes GST", "GST included"])
        if spec.gst_free_part is not None:
            sheet.add(Cell("GST-free items", label_x), Cell(amount(spec.gst_free_part), 1.0, "r"))
        sheet.add(Cell(phrase, label_x), Cell(amount(spec.gst), 1.0, "r"))
    if spec.paid is not None:
        sheet.add(Cell("Less amount paid", label_x), Cell(f"{sym}{money(spec.paid)}", 1.0, "r"))
        sheet.add(Cell("Balance due", label_x), Cell(f"{sym}{money(spec.total - spec.paid)}", 1.0, "r"), style="bold")
    if any(item.gst_free for item in spec.items) and spec.inclusive_items:
        sheet.add(Cell("* GST-free item", 0.0), style="small")
    if spec.registered is False:
        sheet.add(Cell(rng.choice(["Not registered for GST.", "No GST has been charged: the supplier is not registered for GST."]), 0.0), gap=0.5)  # fmt: skip


def _item_rows(spec: Spec, sheet: Sheet, with_qty: bool) -> None:
    if with_qty:
        sheet.add(Cell("Description", 0.0), Cell("Qty", 0.62, "r"), Cell("Unit Price", 0.8, "r"),
                  Cell("Amount", 1.0, "r"), style="bold", gap=1, role="header")  # fmt: skip
    else:
        sheet.add(Cell("Description", 0.0), Cell("Amount", 1.0, "r"), style="bold", gap=1, role="header")
    for item in spec.items:
        mark = " *" if item.gst_free else ""
        if with_qty and item.quantity is not None and item.unit is not None:
            sheet.add(Cell(item.description, 0.0), Cell(str(item.quantity), 0.62, "r"),
                      Cell(money(item.unit), 0.8, "r"), Cell(money(item.amount) + mark, 1.0, "r"), role="item")  # fmt: skip
        else:
            sheet.add(Cell(item.description, 0.0), Cell(money(item.amount) + mark, 1.0, "r"), role="item")


def build_sheet(spec: Spec, rng: random.Random) -> Sheet:
    """The rows of ``spec`` in its layout; also fixes the truth of items shown without quantities."""
    sheet = Sheet()
    abn_text = f"ABN {format_abn(spec.abn)}" if spec.abn else None
    date_text = fmt_date(spec.issued, spec.date_style)
    due_text = fmt_date(spec.due, spec.date_style) if spec.due else None
    if spec.layout == "thermal":
        _thermal(spec, sheet, rng, abn_text, date_text)
        return sheet
    if spec.layout in ("classic", "multipage"):
        sheet.add(Cell(spec.supplier_lines[0], 0.0), Cell(_title(spec), 1.0, "r"), style="title")
        for extra in spec.supplier_lines[1:]:
            sheet.line(extra)
        if abn_text:
            sheet.line(abn_text)
        sheet.line(f"Phone 0{rng.randint(2, 8)} {rng.randint(9000, 9999)} {rng.randint(1000, 9999)}")
        meta = [(_number_label(spec, rng), spec.number), ("Date:", date_text)]
        if spec.kind == "credit_note":
            meta.append(("Original Invoice No:", f"INV-{rng.randint(1000, 9999)}"))
        if due_text and spec.kind == "invoice":
            meta.append(("Due Date:", due_text))
        if spec.po:
            meta.append(("PO Number:", spec.po))
        left = ["Bill To:", spec.buyer or "Cash customer"]
        if spec.buyer_abn:
            left.append(f"ABN {format_abn(spec.buyer_abn)}")
        for i in range(max(len(left), len(meta))):
            cells = []
            if i < len(left):
                cells.append(Cell(left[i], 0.0))
            if i < len(meta):
                cells.append(Cell(f"{meta[i][0]} {meta[i][1]}", 0.55))
            sheet.add(*cells, gap=1 if i == 0 else 0)
        _item_rows(spec, sheet, with_qty=True)
        _totals(spec, sheet, rng)
        sheet.add(Cell(f"Payment: BSB 062-000 Account {rng.randint(10000000, 99999999)}", 0.0), gap=1, style="small")
        return sheet
    if spec.layout == "modern":
        sheet.line(_title(spec), style="title")
        sheet.add(
            Cell(f"{_number_label(spec, rng)} {spec.number}", 0.0), Cell(f"Issue date: {date_text}", 0.55), gap=0.5
        )
        if due_text and spec.kind == "invoice":
            sheet.line(f"Due date: {due_text}")
        if spec.po:
            sheet.line(f"Your reference: {spec.po}")
        sheet.add(Cell("From:", 0.0), Cell("Bill to:", 0.55), gap=1, style="bold")
        rows = [(spec.supplier_lines[0], spec.buyer or "")]
        rows += [(line, "") for line in spec.supplier_lines[1:]]
        if spec.buyer_abn:
            rows[1] = (rows[1][0], f"Customer ABN: {format_abn(spec.buyer_abn)}")
        for left_text, right_text in rows:
            sheet.add(Cell(left_text, 0.0), *([Cell(right_text, 0.55)] if right_text else []))
        _item_rows(spec, sheet, with_qty=True)
        _totals(spec, sheet, rng)
        footer = " | ".join(
            filter(None, [spec.supplier, abn_text, f"accounts@{spec.supplier.split()[0].lower()}.com.au"])
        )
        sheet.line(footer, style="small", gap=1)
        return sheet
    # simple: one column, items without quantities
    for item in spec.items:
        item.quantity, item.unit = None, None
    sheet.line(spec.supplier_lines[0], style="title")
    if abn_text:
        sheet.line(abn_text)
    for extra in spec.supplier_lines[1:]:
        sheet.line(extra)
    sheet.line(_title(spec), style="bold", gap=1)
    sheet.line(f"{_number_label(spec, rng)} {spec.number}")
    sheet.line(f"Date: {date_text}")
    if spec.kind == "credit_note":
        sheet.line(f"Relates to invoice INV-{rng.randint(1000, 9999)}")
    if spec.buyer:
        sheet.line(f"Customer: {spec.buyer}", gap=0.5)
        if spec.buyer_abn:
            sheet.line(f"Customer ABN: {format_abn(spec.buyer_abn)}")
    if spec.po:
        sheet.line(f"Purchase Order: {spec.po}")
    _item_rows(spec, sheet, with_qty=False)
    _totals(spec, sheet, rng, label_x=0.5)
    return sheet


def _thermal(spec: Spec, sheet: Sheet, rng: random.Random, abn_text: str | None, date_text: str) -> None:
    for item in spec.items:
        if item.quantity == 1:
            item.quantity, item.unit = None, None
    sheet.line(spec.supplier_lines[0], style="title")
    for extra in spec.supplier_lines[1:]:
        sheet.line(extra)
    if abn_text:
        sheet.line(abn_text)
    sheet.line(_title(spec), style="bold", gap=0.5)
    sheet.add(Cell(f"{date_text} {rng.randint(7, 16):02d}:{rng.randint(0, 59):02d}", 0.0),
              Cell(f"{_number_label(spec, rng)} {spec.number}", 1.0, "r"))  # fmt: skip
    sheet.line("-" * 32)
    for item in spec.items:
        mark = " *" if item.gst_free else ""
        text = (
            item.description
            if item.quantity is None
            else f"{item.quantity} x {item.description} @ {money(item.unit or Decimal(0))}"
        )
        sheet.add(Cell(text, 0.0), Cell(money(item.amount) + mark, 1.0, "r"), role="item")
    sheet.line("-" * 32)
    _totals(spec, sheet, rng, label_x=0.0)
    sheet.add(Cell(rng.choice(["EFTPOS", "VISA", "CASH"]), 0.0), Cell(money(spec.total), 1.0, "r"))
    sheet.line("Thank you, come again!", gap=0.5)
