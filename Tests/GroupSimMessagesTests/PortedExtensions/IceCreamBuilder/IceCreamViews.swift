import GroupSimMessages

/// A cell showing a finished ice cream's sticker (the sample's outlet is a view made here).
final class IceCreamCell: UICollectionViewCell {
    static let reuseIdentifier = "IceCreamCell"
    var representedIceCream: IceCream?
    let stickerView = MSStickerView(frame: .zero)

    override init(frame: CGRect) {
        super.init(frame: frame)
        contentView.addSubview(stickerView)
    }

    required init?(coder: NSCoder) {
        super.init(coder: coder)
        contentView.addSubview(stickerView)
    }

    override func prepareForReuse() {
        super.prepareForReuse()
        stickerView.stopAnimating()
        representedIceCream = nil
    }
}

/// The "add" cell.
final class IceCreamAddCell: UICollectionViewCell {
    static let reuseIdentifier = "IceCreamAddCell"
}

/// A cell showing one part to choose.
final class IceCreamPartCell: UICollectionViewCell {
    static let reuseIdentifier = "IceCreamPartCell"
    let imageView = UIImageView()

    override init(frame: CGRect) {
        super.init(frame: frame)
        imageView.contentMode = .scaleAspectFit
        contentView.addSubview(imageView)
    }

    required init?(coder: NSCoder) { nil }
}

/// A stack of image views, one per part of the ice cream, topping first.
final class IceCreamView: UIStackView {
    var iceCream: IceCream? {
        didSet {
            for view in arrangedSubviews {
                removeArrangedSubview(view)
                view.removeFromSuperview()
            }
            guard let iceCream else { return }
            let parts: [(any IceCreamPart)?] = [iceCream.topping, iceCream.scoops, iceCream.base]
            for part in parts.compactMap({ $0 }) {
                let imageView = UIImageView(image: part.image)
                imageView.contentMode = .scaleAspectFit
                addArrangedSubview(imageView)
            }
        }
    }
}

/// A flow layout that lets the chosen part come to rest in the middle: it places the
/// items as a flow layout does, fades the ones away from the middle, and finds the item
/// closest to an offset.
final class IceCreamPartCollectionViewLayout: UICollectionViewFlowLayout {
    private(set) var preparedCount = 0

    override func prepare() {
        super.prepare()
        preparedCount += 1
    }

    override var collectionViewContentSize: CGSize {
        let size = super.collectionViewContentSize
        return CGSize(width: size.width + 2 * sectionInset.left, height: size.height)
    }

    override func layoutAttributesForElements(in rect: CGRect) -> [UICollectionViewLayoutAttributes]? {
        guard let attributes = super.layoutAttributesForElements(in: rect), let collectionView else { return nil }
        let middle = collectionView.contentOffset.x + collectionView.bounds.width / 2
        return attributes.compactMap { original in
            guard let faded = original.copy() as? UICollectionViewLayoutAttributes else { return nil }
            faded.alpha = abs(faded.center.x - middle) < faded.size.width / 2 ? 1 : 0.5
            return faded
        }
    }

    override func layoutAttributesForItem(at indexPath: IndexPath) -> UICollectionViewLayoutAttributes? {
        super.layoutAttributesForItem(at: indexPath)?.copy() as? UICollectionViewLayoutAttributes
    }

    override func targetContentOffset(forProposedContentOffset proposedContentOffset: CGPoint, withScrollingVelocity velocity: CGPoint) -> CGPoint {
        guard let collectionView else { return proposedContentOffset }
        let halfWidth = collectionView.bounds.width / 2
        guard let target = indexPathForVisibleItemClosest(to: proposedContentOffset.x + halfWidth),
              let attributes = layoutAttributesForItem(at: target) else { return proposedContentOffset }
        return CGPoint(x: attributes.center.x - halfWidth, y: proposedContentOffset.y)
    }

    func indexPathForVisibleItemClosest(to offset: CGFloat) -> IndexPath? {
        guard let collectionView, let attributes = layoutAttributesForElements(in: collectionView.bounds), !attributes.isEmpty else {
            return nil
        }
        return attributes.min { abs($0.center.x - offset) < abs($1.center.x - offset) }?.indexPath
    }
}
