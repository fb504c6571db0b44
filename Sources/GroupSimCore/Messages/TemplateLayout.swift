/// How a bubble is drawn: `MSMessageTemplateLayout` (M9).
///
/// Layout strings are not length-limited. When both `image` and `mediaFileURL` are set
/// the image wins; with every caption field nil the bubble has no caption bar. Text may
/// hold `$UUID` tokens, drawn as contact names by Messages (M5).
public struct TemplateLayout: Sendable, Hashable {
    /// A name standing for the image (GroupSim draws no pixels).
    public var image: String?
    public var mediaFileURL: String?
    public var imageTitle: String?
    public var imageSubtitle: String?
    public var caption: String?
    public var subcaption: String?
    public var trailingCaption: String?
    public var trailingSubcaption: String?

    /// Inlinable: built for every message an app composes, and kept out of line it
    /// copied and destroyed the whole layout once more.
    @inlinable
    public init(image: String? = nil, mediaFileURL: String? = nil, imageTitle: String? = nil, imageSubtitle: String? = nil,
                caption: String? = nil, subcaption: String? = nil, trailingCaption: String? = nil, trailingSubcaption: String? = nil) {
        self.image = image
        self.mediaFileURL = mediaFileURL
        self.imageTitle = imageTitle
        self.imageSubtitle = imageSubtitle
        self.caption = caption
        self.subcaption = subcaption
        self.trailingCaption = trailingCaption
        self.trailingSubcaption = trailingSubcaption
    }

    /// Whether the bubble draws a caption bar: some caption field is set (M9).
    public var hasCaptionBar: Bool {
        caption != nil || subcaption != nil || trailingCaption != nil || trailingSubcaption != nil
    }

    /// What the bubble's media area shows: the image if set, else the media file (M9).
    public var media: String? { image ?? mediaFileURL }
}
