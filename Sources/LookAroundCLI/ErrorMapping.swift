import Diagnostics
import Imaging

/// An error's exit code and message: its ``ErrorCategory`` decides the code (DESIGN §3), the one table
/// being ``ErrorCategory/exitCode``. Every module's error type says its cases' categories.
func describe(_ error: any Error) -> (CommandOutcome, String) {
    guard let error = error as? any CategorizedError else { return (.failed(.internalError), "\(error)") }
    return (.failed(error.category), error.description)
}

/// 73 when the output cannot be created (permissions, read-only file system, missing folder), 74 for an
/// I/O error while writing it (disk full, quota, file too large).
func exitCode(for failure: WriteFailure) -> CommandOutcome { .failed(failure.category) }
