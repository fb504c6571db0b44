// Apple's UIKit re-exports Foundation: a file that says `import UIKit` (or
// `import Messages`) uses `URL`, `Data`, `NSLocalizedString`, `CGRect` and the rest
// without importing Foundation itself. GroupSimUIKit does the same, and so, through it,
// does GroupSimMessages, so an extension's files compile with only the import switched.
@_exported import Foundation
