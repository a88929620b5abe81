"""Camera calibration: lens, table plane and colours, kept in one commented text file.

- :mod:`calibration.file`: the calibration file (``load_calibration``, ``save_calibration``,
  ``Calibration.image_to_table_mm``) and its validation errors.
- :mod:`calibration.intrinsics`: lens calibration with uncertainty, cross-validation,
  coverage and an accept/reject verdict with advice.
- :mod:`calibration.table`: ``T_table_from_image`` from four corner markers; moved-camera check.
- :mod:`calibration.colours`: white-balanced Lab colour model of the ring colours.
- :mod:`calibration.patterns`, :mod:`calibration.targets`: boards, markers, printable pages.
- :mod:`calibration.synthetic`, :mod:`calibration.bench`: renders with a known answer and
  the benchmark that measures against it.
"""
