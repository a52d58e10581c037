"""Printed sheets: blank score pads, the history report and the PDF rendering both use."""
