"""The report folder of ``transted eval``: Markdown and CSV (:mod:`~.markdown`), the kappa curve
(:mod:`~.plot`), ``report.html`` (:mod:`~.html`), and each pair's trees computed once for all
of them (:mod:`~.trees`); :func:`~transted.studies.evaluation.reports.writer.write_reports` writes them."""
