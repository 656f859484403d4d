#pragma once
/// Temporaries that Ctrl-C must not leave behind. An -o write stages each file as a
/// temporary beside its target and renames it into place; SIGINT, SIGTERM or SIGHUP in
/// between used to leave TARGET.moeplan-XXXXXX behind. Registered temporaries are unlinked
/// by a signal handler, which then re-raises the signal with the disposition it replaced,
/// so the process still dies of it (exit status 130 for Ctrl-C in a shell). A signal the
/// process ignores (nohup's SIGHUP, SIGINT of a background job) stays ignored.
#include <cstddef>
#include <string>

namespace moeplan::cli {

/// mkstemp(target + ".moeplan-XXXXXX"), registered for removal on a signal before the
/// signals are let through again (no window in which a temporary exists unregistered).
/// Returns the open descriptor and sets `path`, or -1 with errno set. (Past 16 pending
/// temporaries, or a path of 4096 bytes or more, a temporary is created unregistered.)
int create_temporary(const std::string& target, std::string& path);

/// rename(2) of a registered temporary over `target`, and the handler forgets it, with the
/// signals blocked in between (so neither a leftover nor an unlink of a name that another
/// file may take). Returns rename's result, errno set on failure (the temporary is then
/// still registered: remove_temporary it).
int rename_temporary(const std::string& path, const std::string& target);

/// Unlinks a registered temporary and forgets it.
void remove_temporary(const std::string& path);

/// How many temporaries a signal would remove now (for tests: 0 after every command).
std::size_t pending_temporaries();

}  // namespace moeplan::cli
