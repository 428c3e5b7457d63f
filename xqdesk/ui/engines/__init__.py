"""Engine processes as the window sees them: the worker thread that carries an engine's replies onto
the GUI thread, the first start's compilation, and the dialog that configures engines. Stands on
``base`` alone."""
