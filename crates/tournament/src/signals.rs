//! SIGINT and SIGTERM during a match: the handler only notes the signal;
//! the match's main loop sees it, kills every engine and prints the table
//! so far (`mod.rs`). A second signal ends the arbiter at once.

use std::sync::atomic::{AtomicI32, Ordering};

/// The signal received, 0 for none.
static RECEIVED: AtomicI32 = AtomicI32::new(0);

#[cfg(unix)]
extern "C" fn on_signal(sig: libc::c_int) {
    if RECEIVED.swap(sig, Ordering::SeqCst) != 0 {
        // SAFETY: _exit(2) is async-signal-safe.
        unsafe { libc::_exit(128 + sig) }
    }
}

/// Installs the handlers (once per process; later calls reset the note).
pub fn install() {
    RECEIVED.store(0, Ordering::SeqCst);
    #[cfg(unix)]
    for sig in [libc::SIGINT, libc::SIGTERM] {
        // SAFETY: a zeroed sigaction with a handler that only touches an
        // atomic (and calls _exit) is a valid, async-signal-safe handler.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
            action.sa_flags = libc::SA_RESTART;
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(sig, &action, std::ptr::null_mut());
        }
    }
}

/// The signal that arrived since [`install`], if any.
pub fn received() -> Option<i32> {
    match RECEIVED.load(Ordering::SeqCst) {
        0 => None,
        s => Some(s),
    }
}

/// The name of a signal number for messages.
pub fn name(sig: i32) -> String {
    #[cfg(unix)]
    {
        if sig == libc::SIGINT {
            return "SIGINT".into();
        }
        if sig == libc::SIGTERM {
            return "SIGTERM".into();
        }
    }
    format!("signal {sig}")
}

/// This process's peak resident memory in bytes, if the system says.
pub fn peak_rss() -> Option<u64> {
    #[cfg(unix)]
    {
        // SAFETY: getrusage(2) writes only into `usage`, which we own.
        let usage = unsafe {
            let mut usage: libc::rusage = std::mem::zeroed();
            (libc::getrusage(libc::RUSAGE_SELF, &mut usage) == 0).then_some(usage)
        }?;
        // Kilobytes on Linux, bytes on macOS.
        let scale = if cfg!(target_os = "macos") { 1 } else { 1024 };
        Some(usage.ru_maxrss as u64 * scale)
    }
    #[cfg(not(unix))]
    None
}
