// The live page's script: reconciles and the object tree (with each object's Events) arrive as
// Server-Sent Events from opgen dev; everything is drawn with textContent (no markup from the
// cluster's data).
'use strict';
(() => {
  const timeline = document.getElementById('timeline');
  const noReconciles = document.getElementById('no-reconciles');
  const objects = document.getElementById('objects');
  const events = document.getElementById('events');
  const eventsOf = document.getElementById('events-of');
  const filter = document.getElementById('filter');
  const status = document.getElementById('status');

  const el = (tag, props = {}, children = []) => {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(props)) {
      if (key === 'text') node.textContent = value;
      else if (key === 'class') node.className = value;
      else node.setAttribute(key, value);
    }
    for (const child of children) node.append(child);
    return node;
  };
  const objectName = (r) => `${r.kind.kind} ${r.namespace ? `${r.namespace}/` : ''}${r.name}`;
  const nodeName = (node) => `${node.kind} ${node.namespace ? `${node.namespace}/` : ''}${node.name}`;
  const timeOf = (iso) => new Date(iso).toLocaleTimeString();
  const matches = (text) => {
    const wanted = filter.value.trim().toLowerCase();
    return !wanted || text.toLowerCase().includes(wanted);
  };

  function callsTable(calls) {
    if (calls.length === 0) return el('p', { class: 'empty', text: 'No API call.' });
    const rows = calls.map((c) =>
      el('tr', { class: 'call' }, [
        el('td', { text: c.verb }),
        el('td', { text: c.kind }),
        el('td', { text: `${c.namespace ? `${c.namespace}/` : ''}${c.name ?? ''}${c.subresource ? ` (${c.subresource})` : ''}` }),
        el('td', { class: c.error ? 'code-error' : '', text: c.code === undefined || c.code === null ? 'no response' : String(c.code), title: c.error ?? '' }),
        el('td', { text: `${Math.round(c.durationMs)} ms` }),
      ]),
    );
    const head = el('tr', {}, ['verb', 'kind', 'object', 'status', 'took'].map((t) => el('th', { text: t })));
    return el('table', { class: 'calls' }, [el('thead', {}, [head]), el('tbody', {}, rows)]);
  }

  function diffBlock(diff) {
    if (!diff) return el('p', { class: 'empty', text: 'No change to the object seen.' });
    const lines = diff.split('\n').map((line) => el('span', { class: line.startsWith('+') ? 'add' : line.startsWith('-') ? 'del' : '', text: `${line}\n` }));
    return el('pre', { class: 'diff' }, lines);
  }

  function addReconcile(r) {
    const name = objectName(r);
    const details = el('div', { class: 'details', hidden: '' }, [el('h3', { text: 'API calls' }), callsTable(r.calls)]);
    const button = el('button', { type: 'button', 'aria-expanded': 'false' }, [
      el('span', { class: 'when', text: new Date(r.startedAt).toLocaleTimeString() }),
      el('span', { class: 'object', text: name }),
      el('span', { class: 'trigger', text: r.text.triggers }),
      el('span', { class: 'took', text: r.text.duration }),
      el('span', { class: `result result-${r.result.type}`, text: r.text.result }),
    ]);
    let diffAsked = false;
    button.addEventListener('click', () => {
      const open = details.hidden;
      details.hidden = !open;
      button.setAttribute('aria-expanded', String(open));
      if (open && !diffAsked) {
        diffAsked = true;
        fetch(`/diff?seq=${r.seq}`)
          .then((answer) => answer.json())
          .then(({ diff }) => details.append(el('h3', { text: 'The object before → after' }), diffBlock(diff)))
          .catch(() => details.append(el('p', { class: 'empty', text: 'The diff is not available.' })));
      }
    });
    const item = el('li', { class: 'reconcile', 'data-object': name }, [button, details]);
    item.hidden = !matches(name);
    timeline.prepend(item);
    noReconciles.hidden = true;
  }

  function conditionList(conditions) {
    return el('ul', { class: 'conditions' }, conditions.map((c) => el('li', { class: `cond-${String(c.status).toLowerCase()}`, text: `${c.type}=${c.status}${c.reason ? ` (${c.reason})` : ''}${c.message ? `: ${c.message}` : ''}` })));
  }

  /** The object whose Events are shown (its name as the tree draws it); kept across redraws. */
  let selected = null;

  function treeNode(node) {
    const name = nodeName(node);
    const select = el('button', { type: 'button', 'aria-pressed': String(name === selected) }, [el('strong', { text: `${node.kind} ` }), el('span', { text: `${node.namespace ? `${node.namespace}/` : ''}${node.name}` })]);
    select.addEventListener('click', () => {
      selected = name;
      drawObjects(lastTree);
    });
    const label = el('div', { class: name === selected ? 'node selected' : 'node', 'data-object': name }, [select]);
    if (node.conditions.length > 0) label.append(conditionList(node.conditions));
    const children = node.children.length > 0 ? [el('ul', {}, node.children.map(treeNode))] : [];
    return el('li', {}, [label, ...children]);
  }

  function findNode(nodes, name) {
    for (const node of nodes) {
      const found = nodeName(node) === name ? node : findNode(node.children, name);
      if (found) return found;
    }
    return undefined;
  }

  function eventsTable(list) {
    const rows = list.map((e) =>
      el('tr', { class: 'event' }, [
        el('td', { class: 'when', text: e.count > 1 && e.lastTime ? `${timeOf(e.time)} – ${timeOf(e.lastTime)} (×${e.count})` : timeOf(e.time) }),
        el('td', { class: e.type === 'Warning' ? 'event-warning' : '', text: e.type }),
        el('td', { text: e.reason }),
        el('td', { text: e.message }),
      ]),
    );
    const head = el('tr', {}, ['time', 'type', 'reason', 'message'].map((t) => el('th', { text: t })));
    return el('table', { class: 'events' }, [el('thead', {}, [head]), el('tbody', {}, rows)]);
  }

  function drawEvents(tree) {
    const node = selected && tree ? findNode(tree, selected) : undefined;
    eventsOf.textContent = selected ? `of ${selected}, oldest first` : 'oldest first';
    if (!selected) events.replaceChildren(el('p', { class: 'empty', text: 'Click an object to see the Events about it.' }));
    else if (!node) events.replaceChildren(el('p', { class: 'empty', text: `${selected} is not in the cluster.` }));
    else if (node.events.length === 0) events.replaceChildren(el('p', { class: 'empty', text: 'No Event about it yet.' }));
    else events.replaceChildren(eventsTable(node.events));
  }

  function drawObjects(tree) {
    if (tree === null) {
      objects.replaceChildren(el('p', { class: 'empty', text: 'Objects are shown for the memory cluster only.' }));
      events.replaceChildren(el('p', { class: 'empty', text: 'Events are shown for the memory cluster only.' }));
      return;
    }
    const roots = tree.filter((node) => matches(nodeName(node)));
    objects.replaceChildren(roots.length === 0 ? el('p', { class: 'empty', text: 'No object yet.' }) : el('div', { class: 'tree' }, [el('ul', {}, roots.map(treeNode))]));
    drawEvents(tree);
  }

  let lastTree = null;
  filter.addEventListener('input', () => {
    for (const item of timeline.children) item.hidden = !matches(item.dataset.object);
    drawObjects(lastTree);
  });

  const stream = new EventSource('/events');
  stream.addEventListener('open', () => (status.textContent = 'live'));
  stream.addEventListener('error', () => (status.textContent = 'disconnected: is opgen dev running?'));
  stream.addEventListener('hello', (event) => {
    const { reconciles, objects: tree } = JSON.parse(event.data);
    timeline.replaceChildren();
    for (const r of reconciles) addReconcile(r);
    lastTree = tree;
    drawObjects(tree);
  });
  stream.addEventListener('reconcile', (event) => addReconcile(JSON.parse(event.data)));
  stream.addEventListener('objects', (event) => {
    lastTree = JSON.parse(event.data);
    drawObjects(lastTree);
  });
})();
