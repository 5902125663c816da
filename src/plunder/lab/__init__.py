"""The designer's lab: games stored one row each (resumable runs), and reports with plots."""
