"""charscan's reports in Microsoft's SARIF viewer component (npm
@microsoft/sarif-web-component, pinned in package-lock.json, bundled with
esbuild) on a local page in headless Chromium (Debian's chromium): what a
reader of the report in a viewer sees, asserted from the DOM, with a
screenshot kept in out/.

The component shows, per rule, its id linked to helpUri, its name and
CWE; per result, the level, the path and line, the message with its
related locations as link text ("see declaration") and the source snippet.
It does not show SARIF fixes, code flows or a rule's help text (it links
to helpUri instead): those are checked against the schema and by the
other tests.
"""
import html
import json
import os
import re
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
LINK = re.compile(r"\[([^\]]+)\]\(\d+\)")


def render(sarif, workdir, png):
    """The rendered page's DOM, scripts and styles removed."""
    os.makedirs(workdir, exist_ok=True)
    bundle = os.path.join(workdir, "bundle.js")
    subprocess.run([os.path.join(HERE, "node_modules", ".bin", "esbuild"), os.path.join(HERE, "viewer", "page.js"),
                    "--bundle", "--outfile=" + bundle, "--define:process.env.NODE_ENV=\"production\"",
                    "--log-level=error"], check=True)
    log = open(sarif, encoding="utf-8").read()
    page = os.path.join(workdir, "index.html")
    with open(page, "w", encoding="utf-8") as f:
        f.write('<!doctype html><html><head><meta http-equiv="content-type" content="text/html; charset=utf-8">'
                '<title>loading</title></head><body><div id="root"></div><script>window.CHARSCAN_LOG = %s;'
                '</script><script src="bundle.js"></script></body></html>' % log.replace("</", "<\\/"))
    chrome = ["timeout", "180", "chromium", "--headless", "--no-sandbox", "--disable-gpu",
              "--virtual-time-budget=60000", "--window-size=1400,8000", "file://" + page]
    dom = subprocess.run(chrome[:-1] + ["--dump-dom", chrome[-1]], capture_output=True, text=True).stdout
    subprocess.run(chrome[:-1] + ["--screenshot=" + png, chrome[-1]], capture_output=True)
    dom = re.sub(r"<script[^>]*>.*?</script>|<style[^>]*>.*?</style>", "", dom, flags=re.S)
    return dom


def problems(sarif, dom):
    """What the viewer does not show of the report: [] when it all is."""
    run = json.load(open(sarif, encoding="utf-8"))["runs"][0]
    text = html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", dom)))
    bare = re.sub(r"\s", "", text)
    found = []
    if "<title>rendered</title>" not in dom:
        return ["the page did not finish rendering"]
    shown_rules = {r["ruleId"] for r in run["results"]}
    for rule in run["tool"]["driver"]["rules"]:
        if rule["id"] in shown_rules and 'href="%s"' % html.escape(rule["helpUri"]) not in dom:
            found.append("%s: no link to its help %s" % (rule["id"], rule["helpUri"]))
    rows = len(re.findall(r'class="[^"]*bolt-table-status-icon', dom))
    if rows != len(run["results"]):
        found.append("%d result rows for %d results" % (rows, len(run["results"])))
    for r in run["results"]:
        message = re.sub(r"\s+", " ", LINK.sub(r"\1", r["message"]["text"]))
        region = r["locations"][0]["physicalLocation"]["region"]
        if message not in text:
            found.append("message not shown: " + message[:100])
        # Highlighted: tokens in elements of their own, spaced apart.
        snippet = region.get("snippet", {}).get("text", "").strip()
        if snippet and re.sub(r"\s", "", snippet)[:60] not in bare:
            found.append("snippet not shown: " + snippet[:60])
        for rel in r.get("relatedLocations", []):
            label = LINK.search(r["message"]["text"])
            if label and label.group(1) not in text:
                found.append("related location not shown: " + rel["message"]["text"][:60])
    return found
