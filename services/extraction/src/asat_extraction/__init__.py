"""AsAt extraction: read invoices, receipts and credit notes into checked, traceable transactions."""
