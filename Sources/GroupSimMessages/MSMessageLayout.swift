import Foundation
import GroupSimCore
import GroupSimScenario
import GroupSimSimulation

/// `MSMessageLayout`: the base of the ways a message bubble is drawn.
open class MSMessageLayout {
    /// A layout; use `MSMessageTemplateLayout` or `MSMessageLiveLayout`.
    public init() {}

    /// The template GroupSim draws: the layout itself, or a live layout's alternate (M27).
    var drawnTemplate: TemplateLayout { TemplateLayout() }
}

/// `MSMessageTemplateLayout`: the bubble's captions and media (M9). GroupSim draws no
/// pixels: `image` is kept and not drawn; `mediaFileURL` shows as its file name.
open class MSMessageTemplateLayout: MSMessageLayout {
    /// The bubble's image; kept, not drawn.
    open var image: UIImage?
    open var caption: String?
    open var subcaption: String?
    open var trailingCaption: String?
    open var trailingSubcaption: String?
    open var imageTitle: String?
    open var imageSubtitle: String?
    /// A media file shown in the bubble; GroupSim draws its file name.
    open var mediaFileURL: URL?

    /// An empty template: no caption bar, no media (M9).
    public override init() {}

    init(_ layout: TemplateLayout) {
        caption = layout.caption
        subcaption = layout.subcaption
        trailingCaption = layout.trailingCaption
        trailingSubcaption = layout.trailingSubcaption
        imageTitle = layout.imageTitle
        imageSubtitle = layout.imageSubtitle
        mediaFileURL = layout.mediaFileURL.map { URL(fileURLWithPath: $0) }
    }

    override var drawnTemplate: TemplateLayout {
        TemplateLayout(image: nil, mediaFileURL: mediaFileURL?.lastPathComponent, imageTitle: imageTitle,
                       imageSubtitle: imageSubtitle, caption: caption, subcaption: subcaption,
                       trailingCaption: trailingCaption, trailingSubcaption: trailingSubcaption)
    }
}

/// `MSMessageLiveLayout` (iOS 11): the extension draws the bubble itself in the
/// transcript; devices that cannot run it draw `alternateLayout` (M27). GroupSim draws
/// the alternate layout everywhere.
open class MSMessageLiveLayout: MSMessageLayout {
    open var alternateLayout: MSMessageTemplateLayout

    public init(alternateLayout: MSMessageTemplateLayout) {
        self.alternateLayout = alternateLayout
    }

    override var drawnTemplate: TemplateLayout { alternateLayout.drawnTemplate }
}
