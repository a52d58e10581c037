"""The history: finished plays a page at a time, filtered, corrected, deleted and restored."""
