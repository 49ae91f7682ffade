/// The pages that show a folder's charts (`plots/index.html`, `compare/index.html`): a title,
/// what the charts are of, a few short tables of the figures they show, then the charts in a
/// grid as wide as the screen allows, each at its own size and shrunk to fit a narrow one.
public enum ChartPage {
    /// A small table: its caption, header and rows, every cell text.
    public struct Table: Sendable {
        public var caption: String
        public var header: [String]
        public var rows: [[String]]
        public init(caption: String, header: [String], rows: [[String]]) {
            self.caption = caption
            self.header = header
            self.rows = rows
        }
    }

    static func escape(_ s: String) -> String {
        SvgChart.escape(s).replacingOccurrences(of: "\"", with: "&quot;")
    }

    /// The page: `title`, the lines of `facts` as a list, the tables, then every chart (file
    /// name and title) as an image; with `chartsFirst`, the charts before the tables (a report
    /// whose tables are long).
    public static func html(
        title: String, facts: [String], tables: [Table], charts: [(file: String, title: String)],
        chartsFirst: Bool = false
    ) -> String {
        var h = "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        h += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>\(escape(title))</title>\n"
        h += "<style>body{font-family:Helvetica,Arial,sans-serif;margin:1.5em;color:#222}"
        h +=
            "main{max-width:1800px}table{border-collapse:collapse;margin:0.5em 1.5em 1em 0;display:inline-table;vertical-align:top}"
        h +=
            "caption{text-align:left;font-weight:bold;padding-bottom:0.3em}td,th{border:1px solid #ccc;padding:0.2em 0.6em;text-align:right}"
        h += "td:first-child,th:first-child{text-align:left}.charts{display:flex;flex-wrap:wrap;gap:1em;margin:1em 0}"
        h += "figure{margin:0;flex:0 1 calc(50% - 0.5em);min-width:min(100%,560px)}"
        h += "figure img{width:100%;height:auto;border:1px solid #ddd}</style>"
        h += "</head><body><main>\n<h1>\(escape(title))</h1>\n"
        if !facts.isEmpty {
            h += "<ul>\n" + facts.map { "<li>\(escape($0))</li>\n" }.joined() + "</ul>\n"
        }
        var tableHTML = ""
        for t in tables {
            tableHTML += "<table><caption>\(escape(t.caption))</caption>\n<tr>"
            tableHTML += t.header.map { "<th>\(escape($0))</th>" }.joined() + "</tr>\n"
            for r in t.rows { tableHTML += "<tr>" + r.map { "<td>\(escape($0))</td>" }.joined() + "</tr>\n" }
            tableHTML += "</table>\n"
        }
        var chartHTML = "<div class=\"charts\">\n"
        for c in charts {
            chartHTML += "<figure><img src=\"\(escape(c.file))\" alt=\"\(escape(c.title))\"></figure>\n"
        }
        chartHTML += "</div>\n"
        h += chartsFirst ? chartHTML + tableHTML : tableHTML + chartHTML
        h += "</main></body></html>\n"
        return h
    }
}
