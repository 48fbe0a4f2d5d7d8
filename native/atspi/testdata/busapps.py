"""Finding an application and its windows on the accessibility bus, for
the pyatspi reference scripts beside this file (walk.py, containers.py,
secure_lengths.py), which import it."""

import pyatspi


def find_app(pid):
    """The application with process id pid on the bus, or None."""
    for app in pyatspi.Registry.getDesktop(0):
        if app is None:
            continue
        try:
            if app.get_process_id() == pid:
                return app
        except Exception:
            continue
    return None


def find_frame(pid, prefix=""):
    """The first top-level child of the application with process id pid
    whose name starts with prefix (an empty prefix: the first), or None."""
    app = find_app(pid)
    if app is None:
        return None
    for frame in app:
        if frame is not None and (frame.name or "").startswith(prefix):
            return frame
    return None
