// The page tests/viewer.py opens in headless Chromium: Microsoft's SARIF
// viewer component with the report in window.CHARSCAN_LOG.  A user would
// expand each rule's group and press "Show All"; this does the same until
// nothing is left folded, then titles the page "rendered".
import * as React from 'react'
import * as ReactDOM from 'react-dom'
import {Viewer} from '@microsoft/sarif-web-component'

ReactDOM.render(React.createElement(Viewer, {logs: [window.CHARSCAN_LOG], hideBaseline: true}),
                document.getElementById('root'))

// Done when nothing is folded and every result has its row, three ticks
// running: on a busy machine React may still be drawing the groups just
// unfolded when the clicks run out.  Titled anyway after 50 s of virtual
// time, so that the test reports what is missing.
const total = (window.CHARSCAN_LOG.runs || []).reduce((n, r) => n + (r.results || []).length, 0)
let quiet = 0
let ticks = 0
const unfold = setInterval(() => {
  const folded = [...document.querySelectorAll('tr.bolt-tree-row[aria-expanded="false"]')]
  const more = [...document.querySelectorAll('.bolt-link')].filter(e => e.textContent === 'Show All')
  const rows = document.querySelectorAll('[class*="bolt-table-status-icon"]').length
  folded.concat(more).forEach(e => e.click())
  quiet = folded.length + more.length || rows < total ? 0 : quiet + 1
  if (quiet === 3 || ++ticks === 250) {
    clearInterval(unfold)
    document.title = 'rendered'
  }
}, 200)
