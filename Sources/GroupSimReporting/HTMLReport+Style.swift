/// The page's inline style sheet: system fonts only, nothing fetched.
extension HTMLReport {
    static let style = """

    :root { color-scheme: light; --ink: #0f172a; --muted: #64748b; --line: #e2e8f0; --mine: #2563eb; --theirs: #e5e7eb; }
    * { box-sizing: border-box; }
    body { margin: 0 auto; max-width: 1280px; padding: 24px 28px 48px; color: var(--ink); background: #fff;
      font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Liberation Sans", "DejaVu Sans", Arial, sans-serif; }
    h1 { font-size: 26px; margin: 0 0 6px; }
    h2 { font-size: 19px; margin: 32px 0 10px; padding-bottom: 4px; border-bottom: 1px solid var(--line); }
    h3 { font-size: 15px; margin: 16px 0 6px; }
    code { font-family: ui-monospace, "SF Mono", Menlo, "Liberation Mono", "DejaVu Sans Mono", monospace; font-size: 13px; }
    .about { white-space: pre-wrap; margin: 4px 0 8px; max-width: 90ch; }
    .meta { color: var(--muted); }
    .pass { color: #15803d; font-weight: 600; }
    .fail { color: #b91c1c; font-weight: 600; }
    .none { color: var(--muted); }
    .legend { color: var(--muted); font-size: 13px; max-width: 110ch; }
    .flow-wrap, .table-wrap { overflow-x: auto; }
    svg.flow { display: block; background: #fcfcfd; border: 1px solid var(--line); border-radius: 8px;
      font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Liberation Sans", "DejaVu Sans", Arial, sans-serif; }
    svg.flow .row { stroke: #f1f5f9; stroke-width: 1; }
    svg.flow .time { font-size: 11px; fill: var(--muted); }
    svg.flow .lane-name { font-size: 13px; font-weight: 700; fill: var(--ink); }
    svg.flow .lane-who { font-size: 11px; fill: var(--muted); }
    svg.flow .lane-line { stroke: #94a3b8; stroke-width: 1.5; stroke-dasharray: 2 3; }
    svg.flow .copy line { stroke-width: 1.6; }
    svg.flow .arrival { fill: #fff; stroke-width: 1.5; }
    svg.flow .copy-label { font-size: 11px; font-weight: 700; paint-order: stroke; stroke: #fcfcfd; stroke-width: 3px; }
    svg.flow .cloud-request { stroke: #64748b; stroke-width: 1.2; stroke-dasharray: 5 3; }
    svg.flow .cloud-answer { stroke: #64748b; stroke-width: 1.2; stroke-dasharray: 1 3; }
    svg.flow .mark { font-size: 11px; paint-order: stroke; stroke: #fcfcfd; stroke-width: 3px; fill: #334155; }
    svg.flow .mark.step { fill: var(--muted); font-style: italic; }
    svg.flow .mark.send { font-weight: 700; }
    svg.flow .mark.collapse { fill: #c2410c; }
    svg.flow .mark.failure { fill: #b91c1c; font-weight: 700; }
    svg.flow .mark.pitfall { fill: #a16207; font-weight: 700; }
    svg.flow .mark.cloud { fill: #475569; }
    svg.flow path.collapse { fill: #f97316; }
    svg.flow path.failure { stroke: #dc2626; stroke-width: 2.5; fill: none; }
    svg.flow path.pitfall { fill: #facc15; stroke: #a16207; stroke-width: 1; }
    .devices { display: flex; flex-wrap: wrap; gap: 16px; align-items: flex-start; }
    .device-transcript { flex: 1 1 240px; max-width: 320px; border: 1px solid var(--line); border-radius: 18px; \
    padding: 10px 12px 14px; background: #f8fafc; }
    .device-transcript h3 { margin: 2px 0 0; font-size: 14px; }
    .device-transcript .who { margin: 0 0 8px; color: var(--muted); font-size: 12px; }
    .screen { display: flex; flex-direction: column; gap: 6px; }
    .bubble { max-width: 88%; padding: 6px 10px 7px; border-radius: 14px; background: var(--theirs); align-self: flex-start; }
    .bubble.mine { background: var(--mine); color: #fff; align-self: flex-end; }
    .bubble .meta { font-size: 11px; color: inherit; opacity: .75; }
    .bubble .caption { font-weight: 600; overflow-wrap: anywhere; }
    .bubble .subcaption { font-size: 13px; overflow-wrap: anywhere; }
    .bubble .state { font: 12px ui-monospace, "Liberation Mono", "DejaVu Sans Mono", monospace; opacity: .9; overflow-wrap: anywhere; \
    margin-top: 2px; }
    .bubble .state .key { font-weight: 700; }
    .summary { align-self: center; font-size: 12px; color: var(--muted); text-align: center; overflow-wrap: anywhere; }
    .conversation { font-size: 12px; font-weight: 700; color: var(--muted); margin: 6px 0 0; }
    .empty { color: var(--muted); font-size: 12px; }
    table { border-collapse: collapse; font-size: 13px; }
    th, td { border-bottom: 1px solid var(--line); padding: 4px 10px; text-align: left; vertical-align: top; }
    th { background: #f8fafc; }
    table.live td.time { text-align: right; color: var(--muted); white-space: nowrap; }
    table.live td.changed { border-left: 4px solid #94a3b8; white-space: nowrap; }
    table.live td.same { color: #94a3b8; }
    table.live .how { color: var(--muted); font-size: 12px; }
    table.checks td:first-child { font-weight: 700; }
    .partings li { margin-bottom: 6px; max-width: 110ch; }
    .pitfall { border: 1px solid #fde68a; background: #fffbeb; border-radius: 10px; padding: 8px 14px; margin: 10px 0; max-width: 110ch; }
    .pitfall h3 { margin: 4px 0; }
    .pitfall, section h2 { scroll-margin-top: 120px; }
    .pitfall .rule { font-size: 12px; color: #92400e; background: #fef3c7; border-radius: 6px; padding: 1px 6px; }
    .pitfall .what { font-weight: 600; }
    footer { margin-top: 32px; color: var(--muted); font-size: 12px; }
    .scrubber { position: sticky; top: 0; z-index: 5; background: #fff; border-bottom: 1px solid var(--line); padding: 8px 0 4px; \
    margin: 8px 0 0; }
    .scrubber .controls { display: flex; align-items: center; gap: 6px; flex-wrap: wrap; }
    .scrubber button { font: inherit; font-size: 13px; padding: 3px 9px; border: 1px solid #cbd5e1; border-radius: 6px; \
    background: #f8fafc; color: var(--ink); cursor: pointer; }
    .scrubber button:focus-visible, .scrubber input:focus-visible, .scrubber a:focus-visible { outline: 3px solid #2563eb; \
    outline-offset: 2px; }
    .scrubber input[type=range] { flex: 1 1 320px; min-width: 200px; accent-color: #dc2626; }
    .scrubber output { font: 13px ui-monospace, "Liberation Mono", "DejaVu Sans Mono", monospace; color: var(--muted); min-width: 22ch; }
    .scrubber .say { margin: 6px 0 2px; max-width: 130ch; }
    .scrubber .moment { margin: 4px 0; padding: 4px 10px; border-radius: 8px; background: #fef3c7; border: 1px solid #fde68a; \
    font-weight: 600; max-width: 130ch; }
    .scrubber .rule-link { font-size: 12px; color: #92400e; background: #fef3c7; border-radius: 6px; padding: 1px 6px; \
    text-decoration: none; }
    svg.flow .now-line { stroke: #dc2626; stroke-width: 1.5; stroke-dasharray: 6 3; }
    svg.flow .now-label { font-size: 11px; font-weight: 700; fill: #dc2626; paint-order: stroke; stroke: #fcfcfd; stroke-width: 3px; }
    svg.flow .inflight line { stroke-width: 4; opacity: .55; }
    .device-transcript .now { margin: 0 0 8px; font-size: 12px; color: #334155; background: #eef2ff; border-radius: 8px; padding: 3px 8px; }
    .bubble.live { box-shadow: 0 0 0 3px #facc15; }
    .bubble .tap { font-size: 11px; opacity: .85; margin-top: 3px; font-style: italic; }
    .broken { color: #b45309; font-weight: 600; }
    section.run { margin: 28px 0; padding: 4px 18px 12px; border-radius: 10px; border: 2px solid var(--line); }
    section.broken-run { border-color: #fcd34d; }
    section.fixed-run { border-color: #86efac; }
    .design { font-size: 17px; font-weight: 600; margin: 10px 0 4px; max-width: 110ch; }
    .design.broken { color: #92400e; }
    .design.fixed { color: #166534; }
    @media print { .scrubber { display: none; } svg.flow .cursor { display: none; } }

    """
}
