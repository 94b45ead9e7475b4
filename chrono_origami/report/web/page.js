// The results page of chrono-origami (chrono_origami/report/page.py writes the data this script reads).
// Global frame, the pattern's length units; z up. Numbers arrive as base64 little-endian float64 (exact, NaN and
// infinities included) and are shown as Python's repr writes them in the CSV files (pyRepr).
(function () {
  'use strict';
  const D = JSON.parse(document.getElementById('data').textContent);
  const G = D.geometry;
  const API = window.chronoOrigami = { ready: false, renders: 0 };

  // ---------------------------------------------------------------- decoding and numbers
  function b64(s, Type) {
    const bin = atob(s);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    return new Type(bytes.buffer);
  }
  function num(v) {
    if (typeof v === 'string') return v === 'nan' ? NaN : (v === 'inf' ? Infinity : -Infinity);
    return v;
  }
  // Python's repr of a float: the shortest text that reads back to the same number
  function pyRepr(x) {
    if (Number.isNaN(x)) return 'nan';
    if (x === Infinity) return 'inf';
    if (x === -Infinity) return '-inf';
    if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
    let [mant, ex] = x.toExponential().split('e');
    const exp = parseInt(ex, 10);
    const neg = mant[0] === '-';
    if (neg) mant = mant.slice(1);
    const digits = mant.replace('.', '');
    let s;
    if (exp >= -4 && exp < 16) {
      if (exp >= 0) {
        s = digits.length <= exp + 1 ? digits + '0'.repeat(exp + 1 - digits.length) + '.0'
          : digits.slice(0, exp + 1) + '.' + digits.slice(exp + 1);
      } else {
        s = '0.' + '0'.repeat(-exp - 1) + digits;
      }
    } else {
      s = digits[0] + (digits.length > 1 ? '.' + digits.slice(1) : '') + 'e' + (exp < 0 ? '-' : '+') +
        String(Math.abs(exp)).padStart(2, '0');
    }
    return (neg ? '-' : '') + s;
  }
  API.pyRepr = pyRepr;
  // the engineer's display: 4 significant digits, a value below 1e-12 of its table's largest |value| shown as 0
  // (round-off); the switch "every digit" shows the CSV's text (pyRepr)
  let allDigits = false;
  function eng(x, top) {
    if (!Number.isFinite(x)) return pyRepr(x);
    const a = Math.abs(x);
    if (a === 0 || a < 1e-12 * top) return '0';
    if (a >= 1e-3 && a < 1e4) return String(+x.toPrecision(4));
    return x.toExponential(3).replace(/\.?0+e/, 'e');
  }
  API.eng = eng;
  function cellText(x, isInt, top) {
    if (isInt && Number.isFinite(x)) return String(Math.round(x));
    return allDigits ? pyRepr(x) : eng(x, top || 0);
  }
  const UNITS = D.units || { force: 'model units', moment: 'model units', length: 'model units' };
  function unitOf(kind) { return kind ? UNITS[kind] || '' : ''; }
  function short(x) {
    if (!Number.isFinite(x)) return pyRepr(x);
    return Math.abs(x) >= 1e-3 && Math.abs(x) < 1e5 || x === 0 ? String(+x.toPrecision(4)) : x.toExponential(3);
  }
  function esc(s) {
    return String(s).replace(/[&<>"]/g, c => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]));
  }

  // the largest finite |value| round-off is measured against: the table's over its columns with a unit (forces,
  // moments, lengths: as the printed tables do), a column's own for a column without one (a time, a residual)
  function decodeTable(t) {
    const values = b64(t.data, Float64Array), k = t.header.length, units = t.units || t.header.map(() => '');
    const col = new Float64Array(k);
    for (let i = 0; i < values.length; i++) {
      const a = Math.abs(values[i]);
      if (Number.isFinite(a) && a > col[i % k]) col[i % k] = a;
    }
    let top = 0;
    for (let c = t.ints; c < k; c++) if (units[c] && col[c] > top) top = col[c];
    const tops = Array.from(col, (x, c) => units[c] ? top : x);
    return Object.assign({}, t, { values, top, tops, units });
  }
  const tris = b64(G.triangles, Uint32Array);
  const hingeV = b64(G.hinges, Uint32Array);
  const boundary = b64(G.boundary, Uint32Array);
  const H = G.n_hinges, V = G.n_vertices;
  const baseKinds = b64(G.kinds, Uint8Array);
  const luts = {};
  for (const name in D.luts) luts[name] = b64(D.luts[name], Uint8Array);
  const states = D.states.map(s => {
    const st = Object.assign({}, s);
    st.X = b64(s.vertices, Float32Array);      // positions drawn (float32, n_drawn x 3)
    st.tables = s.tables.map(decodeTable);
    st.colorings = {};
    for (const c in s.colorings) {
      const col = Object.assign({}, s.colorings[c]);
      col.vals = b64(col.values, Float64Array);
      col.vmin = num(col.vmin);
      col.vmax = num(col.vmax);
      st.colorings[c] = col;
    }
    st.kindIdx = s.kinds ? Uint8Array.from(s.kinds, k => G.kind_names.indexOf(k)) : baseKinds;
    st.angles = s.angles ? b64(s.angles, Float64Array) : null;      // fold angle per hinge (deg, valley > 0)
    return st;
  });
  const pageTables = (D.tables || []).map(decodeTable);

  // ---------------------------------------------------------------- header
  document.getElementById('command').textContent = D.command;
  document.getElementById('counts').innerHTML =
    Object.entries(Object.assign({ panels: G.n_panels, hinges: H }, D.counts))
      .filter(([, v]) => v !== null && v !== undefined)
      .map(([k, v]) => `<span class="count" data-key="${esc(k)}"><b>${esc(k)}</b> ${esc(typeof v === 'number' ?
        (Number.isInteger(v) ? v : short(v)) : v)}</span>`).join('');

  // ---------------------------------------------------------------- scene
  const canvas = document.getElementById('gl');
  const view = document.getElementById('view');
  // a large structure drawn without multisampling (on a software renderer it costs more than the rest of a frame)
  const BIG = G.n_hinges > 3000;
  const renderer = new THREE.WebGLRenderer({ canvas: canvas, antialias: !BIG, preserveDrawingBuffer: true });
  renderer.setPixelRatio(BIG ? 1 : window.devicePixelRatio || 1);
  const scene = new THREE.Scene();
  scene.background = new THREE.Color(0xffffff);
  scene.add(new THREE.AmbientLight(0xffffff, 0.55));
  const sun = new THREE.DirectionalLight(0xffffff, 0.6);
  sun.position.set(0.3, -0.5, 0.8);
  scene.add(sun);
  const under = new THREE.DirectionalLight(0xffffff, 0.25);
  under.position.set(-0.3, 0.5, -0.8);
  scene.add(under);

  // the box of every state's finite vertices
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (const s of states) {
    for (let i = 0; i < V; i++) {
      for (let d = 0; d < 3; d++) {
        const x = s.X[3 * i + d];
        if (Number.isFinite(x)) { if (x < lo[d]) lo[d] = x; if (x > hi[d]) hi[d] = x; }
      }
    }
  }
  for (let d = 0; d < 3; d++) if (!(lo[d] <= hi[d])) { lo[d] = -1; hi[d] = 1; }
  const center = new THREE.Vector3((lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, (lo[2] + hi[2]) / 2);
  const radius = Math.max(0.5 * Math.hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]), 1e-9);
  const camera = new THREE.PerspectiveCamera(35, 1, radius / 100, radius * 100);
  camera.up.set(0, 0, 1);
  const el = 25 * Math.PI / 180, az = -60 * Math.PI / 180;     // the figures' view
  camera.position.set(center.x + 2.6 * radius * Math.cos(el) * Math.cos(az),
    center.y + 2.6 * radius * Math.cos(el) * Math.sin(az), center.z + 2.6 * radius * Math.sin(el));
  const controls = new THREE.OrbitControls(camera, canvas);
  controls.target.copy(center);
  controls.update();

  // panels: one merged mesh; boundary edges: one line set on the same positions
  const drawn = G.n_drawn || V;                 // the pattern's vertices, then thick panels' solids' (page.py)
  const pos = new Float32Array(3 * drawn);
  const posAttr = new THREE.BufferAttribute(pos, 3);
  const meshGeom = new THREE.BufferGeometry();
  meshGeom.setAttribute('position', posAttr);
  meshGeom.setIndex(new THREE.BufferAttribute(tris, 1));
  const mesh = new THREE.Mesh(meshGeom, new THREE.MeshPhongMaterial({
    color: 0x8cb3e6, side: THREE.DoubleSide, flatShading: true, shininess: 0, transparent: !BIG, opacity: BIG ? 1 : 0.9,
    polygonOffset: true, polygonOffsetFactor: 1, polygonOffsetUnits: 1 }));     // a large one opaque: no blending
  mesh.frustumCulled = false;
  scene.add(mesh);
  const edgeGeom = new THREE.BufferGeometry();
  edgeGeom.setAttribute('position', posAttr);
  edgeGeom.setIndex(new THREE.BufferAttribute(boundary, 1));
  const edges = new THREE.LineSegments(edgeGeom, new THREE.LineBasicMaterial({ color: 0x222222 }));
  edges.frustumCulled = false;
  scene.add(edges);

  // the first contact of a thick fold (report/page.py, fold_data): its two panels red on the frame that has it
  const contactGeom = new THREE.BufferGeometry();
  contactGeom.setAttribute('position', posAttr);
  contactGeom.setIndex(new THREE.BufferAttribute(new Uint32Array(D.contact ? D.contact.triangles : [0, 0, 0]), 1));
  const contactMesh = new THREE.Mesh(contactGeom, new THREE.MeshPhongMaterial({
    color: 0xd62728, side: THREE.DoubleSide, flatShading: true, shininess: 0 }));
  contactMesh.frustumCulled = false;
  contactMesh.visible = false;
  scene.add(contactMesh);

  // hinges: one line set per line style (dashed: door, solid: sliding; report/styles.py)
  const hingeMats = {
    dashed: new THREE.LineMaterial({ linewidth: 3, vertexColors: true, dashed: true, dashSize: radius * 0.03,
      gapSize: radius * 0.02 }),
    solid: new THREE.LineMaterial({ linewidth: 3.5, vertexColors: true }),
  };
  const thinMats = {
    dashed: new THREE.LineDashedMaterial({ vertexColors: true, dashSize: radius * 0.03, gapSize: radius * 0.02 }),
    solid: new THREE.LineBasicMaterial({ vertexColors: true }),
  };
  let hingeObjs = [];

  // supports (cones: pinned, spheres: partly held) and loads (arrows), instanced
  const mark = radius * 0.03;
  const coneGeom = new THREE.ConeGeometry(mark * 0.8, mark * 1.6, 12);
  coneGeom.rotateX(Math.PI / 2);
  coneGeom.translate(0, 0, -mark * 0.8);
  const red = new THREE.MeshPhongMaterial({ color: 0xd62728 });
  const pinned = G.supports.filter(s => s.dofs.length === 3), partly = G.supports.filter(s => s.dofs.length !== 3);
  const pinMesh = new THREE.InstancedMesh(coneGeom, red, Math.max(pinned.length, 1));
  const partMesh = new THREE.InstancedMesh(new THREE.SphereGeometry(mark * 0.6, 12, 8), red, Math.max(partly.length, 1));
  pinMesh.count = pinned.length; partMesh.count = partly.length;
  pinMesh.frustumCulled = partMesh.frustumCulled = false;
  scene.add(pinMesh, partMesh);
  // loads: more than MAX_ARROWS drawn as the resultants of the loads in each cell of a grid over the sheet
  const MAX_ARROWS = 300;
  const rawLoads = G.loads.map(l => ({ vertex: l.vertex, f: l.force.map(num) }));
  let loads = rawLoads.map(l => ({ vertices: [l.vertex - 1], f: l.f }));
  if (rawLoads.length > MAX_ARROWS) {
    const X0 = states[0].X, k = Math.floor(Math.sqrt(MAX_ARROWS)), cells = new Map();
    const sx = (hi[0] - lo[0]) / k || 1, sy = (hi[1] - lo[1]) / k || 1;
    for (const l of rawLoads) {
      const i = l.vertex - 1;
      const key = Math.min(Math.floor((X0[3 * i] - lo[0]) / sx), k - 1) * k +
        Math.min(Math.floor((X0[3 * i + 1] - lo[1]) / sy), k - 1);
      if (!cells.has(key)) cells.set(key, { vertices: [], f: [0, 0, 0] });
      const c = cells.get(key);
      c.vertices.push(i);
      for (let d = 0; d < 3; d++) c.f[d] += l.f[d];
    }
    loads = [...cells.values()];
  }
  API.loadArrows = () => loads.length;
  // reactions: the support reactions table's forces summed per vertex (a static page)
  function reactionsOf(st) {
    const t = st.tables.find(x => x.title.startsWith('support reactions'));
    if (!t) return [];
    const by = new Map(), k = t.header.length;
    for (let r = 0; r < t.n; r++) {
      const v = t.values[r * k + 1] - 1;
      if (!by.has(v)) by.set(v, [0, 0, 0]);
      for (let d = 0; d < 3; d++) by.get(v)[d] += t.values[r * k + 2 + d];
    }
    return [...by.entries()].map(([v, f]) => ({ vertices: [v], f }));
  }
  const reactionsAll = states.map(reactionsOf);
  // one force scale: the largest load or reaction arrow is 10 % of the structure's size
  const fmax = Math.max(0, ...loads.concat(...reactionsAll).map(l => Math.hypot(...l.f)).filter(Number.isFinite)) || 1;
  const arrowScale = 0.1 * G.size / fmax;
  const headGeom = new THREE.ConeGeometry(mark * 0.6, mark * 1.8, 12);
  headGeom.rotateX(Math.PI / 2);
  headGeom.translate(0, 0, -mark * 0.9);
  const orange = new THREE.MeshPhongMaterial({ color: 0xff7f0e });
  const headMesh = new THREE.InstancedMesh(headGeom, orange, Math.max(loads.length, 1));
  headMesh.count = loads.length;
  headMesh.frustumCulled = false;
  const shaftPos = new Float32Array(6 * Math.max(loads.length, 1));
  const shaftGeom = new THREE.BufferGeometry();
  shaftGeom.setAttribute('position', new THREE.BufferAttribute(shaftPos, 3));
  const shafts = new THREE.LineSegments(shaftGeom, new THREE.LineBasicMaterial({ color: 0xff7f0e }));
  shafts.frustumCulled = false;
  scene.add(headMesh, shafts);
  const nReact = Math.max(1, ...reactionsAll.map(r => r.length));
  const green = new THREE.MeshPhongMaterial({ color: 0x2ca02c });
  const reactHeads = new THREE.InstancedMesh(headGeom, green, nReact);
  reactHeads.count = 0;
  reactHeads.frustumCulled = false;
  const reactPos = new Float32Array(6 * nReact);
  const reactGeom = new THREE.BufferGeometry();
  reactGeom.setAttribute('position', new THREE.BufferAttribute(reactPos, 3));
  const reactShafts = new THREE.LineSegments(reactGeom, new THREE.LineBasicMaterial({ color: 0x2ca02c }));
  reactShafts.frustumCulled = false;
  scene.add(reactHeads, reactShafts);

  // an elastic answer's displaced shape (report/page.py, displaced_shape): its panels' outlines, red and dashed,
  // at the figure's scale, stated beside the layer's switch
  let displaced = null;
  if (D.displaced) {
    const g = new THREE.BufferGeometry();
    g.setAttribute('position', new THREE.BufferAttribute(b64(D.displaced.segments, Float32Array), 3));
    displaced = new THREE.LineSegments(g, new THREE.LineDashedMaterial({ color: 0xb22222, dashSize: radius * 0.02,
      gapSize: radius * 0.015 }));
    displaced.computeLineDistances();
    displaced.frustumCulled = false;
    displaced.renderOrder = 3;
    scene.add(displaced);
    const note = document.getElementById('displacedscale');
    note.hidden = false;
    note.textContent = D.displaced.caption;
    API.displacedScale = D.displaced.scale;
  }

  // ---------------------------------------------------------------- colours
  const NOT_FINITE = D.not_finite_color;
  let current = 0, colorBy = null;
  function coloring() { return colorBy === 'kind' || colorBy === 'mv' ? null : states[current].colorings[colorBy] || null; }
  const hasAngles = states.some(s => s.angles);
  function foldAngle(h) { const a = states[current].angles; return a ? a[h] : null; }
  API.foldAngle = h1 => foldAngle(h1 - 1);
  // mountain (red) and valley (blue) by the fold angle's sign; flat (|angle| < 0.01 deg) grey
  const MV = { mountain: [0.84, 0.15, 0.16], valley: [0.12, 0.47, 0.71], flat: [0.6, 0.6, 0.6] };
  function mvOf(h) { const a = foldAngle(h); return a === null || Math.abs(a) < 0.01 ? 'flat' : (a < 0 ? 'mountain' : 'valley'); }
  // colour scale: the data's range, or the user's (range boxes), linear or log of |value|
  let scaleMin = null, scaleMax = null, logScale = false;
  function colorTop(c) {
    let top = 0;
    for (let h = 0; h < H; h++) { const a = Math.abs(c.vals[h]); if (Number.isFinite(a) && a > top) top = a; }
    return top;
  }
  function scaled(c) {
    const lo = scaleMin !== null ? scaleMin : c.vmin, hi = scaleMax !== null ? scaleMax : c.vmax;
    return Object.assign({}, c, { vmin: lo, vmax: hi });
  }
  function fraction(c, x) {
    if (logScale) {                         // log10 |x| between log10 of the range's ends (> 0)
      const hi = Math.max(Math.abs(c.vmin), Math.abs(c.vmax)), lo = Math.max(hi * 1e-6, Math.min(Math.abs(c.vmin) ||
        hi * 1e-6, hi));
      const a = Math.abs(x);
      if (!(hi > 0) || a <= lo) return 0;
      return Math.min(Math.log10(a / lo) / Math.log10(hi / lo || 10), 1);
    }
    const span = c.vmax - c.vmin;
    if (span > 0) return Math.min(Math.max((x - c.vmin) / span, 0), 1);
    return c.cmap === 'coolwarm' ? 0.5 : 0.0;
  }
  function mapColor(c, x) {                  // matplotlib's lookup: floor(f N), f = 1 -> N - 1
    if (!Number.isFinite(x)) return NOT_FINITE;
    const lut = luts[c.cmap], n = lut.length / 3;
    const i = Math.min(Math.floor(fraction(c, x) * n), n - 1);
    return [lut[3 * i] / 255, lut[3 * i + 1] / 255, lut[3 * i + 2] / 255];
  }
  // the colour of hinge h (0-based) under the colouring chosen now: made once a drawing, not once a hinge
  function hingeColors() {
    const c = coloring();
    if (c) { const sc = scaled(c); return h => mapColor(sc, c.vals[h]); }
    if (colorBy === 'mv') return h => MV[mvOf(h)];
    return h => G.kind_styles[G.kind_names[states[current].kindIdx[h]]].color;
  }
  function hingeColor(h) { return hingeColors()(h); }
  API.hingeColor = h => hingeColor(h - 1);
  API.hingeValue = h => { const c = coloring(); return c ? c.vals[h - 1] : null; };   // the colouring's value

  // ---------------------------------------------------------------- drawing a state
  function place(X) {
    for (let i = 0; i < 3 * drawn; i++) pos[i] = X[i];
    posAttr.needsUpdate = true;
    meshGeom.computeBoundingSphere();
    const m = new THREE.Matrix4();
    pinned.forEach((s, k) => { const i = s.vertex - 1; pinMesh.setMatrixAt(k, m.makeTranslation(X[3 * i], X[3 * i + 1], X[3 * i + 2])); });
    partly.forEach((s, k) => { const i = s.vertex - 1; partMesh.setMatrixAt(k, m.makeTranslation(X[3 * i], X[3 * i + 1], X[3 * i + 2])); });
    pinMesh.instanceMatrix.needsUpdate = partMesh.instanceMatrix.needsUpdate = true;
    const z = new THREE.Vector3(0, 0, 1), q = new THREE.Quaternion(), one = new THREE.Vector3(1, 1, 1);
    // an arrow per force: loads end at their point (the mean of the cell's vertices), reactions start there
    function arrows(list, heads, buf, geom, pointing) {
      list.forEach((l, k) => {
        const at = new THREE.Vector3();
        for (const i of l.vertices) at.add(new THREE.Vector3(X[3 * i], X[3 * i + 1], X[3 * i + 2]));
        at.multiplyScalar(1 / l.vertices.length);
        const f = new THREE.Vector3(...l.f);
        const len = f.length();
        if (!Number.isFinite(len) || len === 0) { heads.setMatrixAt(k, m.makeScale(0, 0, 0)); buf.fill(0, 6 * k, 6 * k + 6); return; }
        q.setFromUnitVectors(z, f.clone().normalize());
        const tail = pointing ? at.clone().addScaledVector(f, -arrowScale) : at.clone();
        const tip = pointing ? at : at.clone().addScaledVector(f, arrowScale);
        heads.setMatrixAt(k, m.compose(tip, q, one));
        buf.set([tail.x, tail.y, tail.z, tip.x, tip.y, tip.z], 6 * k);
      });
      heads.count = list.length;
      heads.instanceMatrix.needsUpdate = true;
      geom.setDrawRange(0, 2 * list.length);
      geom.attributes.position.needsUpdate = true;
    }
    arrows(loads, headMesh, shaftPos, shaftGeom, true);
    arrows(reactionsAll[current], reactHeads, reactPos, reactGeom, false);
  }
  function drawHinges() {
    for (const o of hingeObjs) { scene.remove(o); o.geometry.dispose(); }
    hingeObjs = [];
    const X = states[current].X, kinds = states[current].kindIdx;
    for (const style of ['dashed', 'solid']) {
      const list = [];
      for (let h = 0; h < H; h++) {
        const dashed = G.kind_styles[G.kind_names[kinds[h]]].dashed;
        if ((style === 'dashed') === dashed && hingeShown(h)) list.push(h);
      }
      if (!list.length) continue;
      const p = new Float32Array(6 * list.length), c = new Float32Array(6 * list.length), colorOf = hingeColors();
      list.forEach((h, k) => {
        const a = hingeV[2 * h], b = hingeV[2 * h + 1], col = colorOf(h);
        for (let d = 0; d < 3; d++) {
          p[6 * k + d] = X[3 * a + d]; p[6 * k + 3 + d] = X[3 * b + d];
          c[6 * k + d] = c[6 * k + 3 + d] = col[d];
        }
      });
      let o;
      if (BIG) {                        // thousands of hinges: the GPU's own 1-px lines (fat lines cost ~0.1 s a frame)
        const g = new THREE.BufferGeometry();
        g.setAttribute('position', new THREE.BufferAttribute(p, 3));
        g.setAttribute('color', new THREE.BufferAttribute(c, 3));
        o = new THREE.LineSegments(g, thinMats[style]);
      } else {
        const g = new THREE.LineSegmentsGeometry();
        g.setPositions(p);
        g.setColors(c);
        o = new THREE.LineSegments2(g, hingeMats[style]);
      }
      if (style === 'dashed') o.computeLineDistances();
      o.frustumCulled = false;
      o.renderOrder = 2;
      scene.add(o);
      hingeObjs.push(o);
    }
  }

  // ---------------------------------------------------------------- layers
  const hidden = new Set();              // layer names hidden: panels, supports, loads, labels, kind:<name>, mountain, valley, flat
  function hingeShown(h) {
    if (hidden.has('kind:' + G.kind_names[states[current].kindIdx[h]])) return false;
    return !(hasAngles && hidden.has(mvOf(h)));
  }
  function applyLayers() {
    mesh.visible = edges.visible = !hidden.has('panels');
    pinMesh.visible = partMesh.visible = reactHeads.visible = reactShafts.visible = !hidden.has('supports');
    headMesh.visible = shafts.visible = !hidden.has('loads');
    if (displaced) displaced.visible = !hidden.has('displaced');
    drawHinges();
    requestRender();          // the draw writes the labels (or clears them when hidden)
  }
  function setLayer(name, shown) {
    if (shown) hidden.delete(name); else hidden.add(name);
    const box = document.querySelector(`#layers input[data-layer="${name}"]`);
    if (box) box.checked = shown;
    applyLayers();
  }
  API.setLayer = setLayer;
  API.layers = () => [...document.querySelectorAll('#layers input')].map(b => b.dataset.layer);
  // labels: hinge numbers at their midpoints (up to MAX_LABELS hinges; the selected one always)
  const MAX_LABELS = 400;
  const labelBox = document.getElementById('labels');
  function drawLabels() {
    if (hidden.has('labels')) { labelBox.innerHTML = ''; return; }
    const P = projectAll(), w = canvas.clientWidth, hh = canvas.clientHeight, out = [];
    for (let h = 0; h < H && out.length < MAX_LABELS; h++) {
      if (!hingeShown(h)) continue;
      const a = hingeV[2 * h], b = hingeV[2 * h + 1];
      const x = (P[3 * a] + P[3 * b]) / 2, y = (P[3 * a + 1] + P[3 * b + 1]) / 2;
      if (x >= 0 && x < w && y >= 0 && y < hh && P[3 * a + 2] <= 1) out.push(`<span style="left:${x | 0}px;top:${y | 0}px">${h + 1}</span>`);
    }
    labelBox.innerHTML = out.join('');
  }

  // the axes triad: x red, y green, z blue, turned as the view, in the lower left corner
  const axesScene = new THREE.Scene();
  axesScene.add(new THREE.AxesHelper(1));
  const axesCam = new THREE.OrthographicCamera(-1.3, 1.3, 1.3, -1.3, 0.1, 10);
  axesCam.up.set(0, 0, 1);
  function drawTriad() {
    const d = new THREE.Vector3().subVectors(camera.position, controls.target).normalize().multiplyScalar(3);
    axesCam.position.copy(d);
    axesCam.up.copy(camera.up);
    axesCam.lookAt(0, 0, 0);
    const size = 80;
    renderer.autoClear = false;
    renderer.setViewport(0, 0, size, size);
    renderer.render(axesScene, axesCam);
    renderer.setViewport(0, 0, canvas.clientWidth, canvas.clientHeight);
    renderer.autoClear = true;
  }

  API.renderTimes = [];                 // performance.now() of the last draws (benchmarks/html_page.py: frames per second)
  function render() {
    renderer.render(scene, camera);
    if (API.renderTimes.push(performance.now()) > 200) API.renderTimes.shift();
    drawTriad();
    drawLabels();
    API.renders++;
    if (!API.ready && !API.firstFrame) {        // ready once the first frame has been presented
      API.firstFrame = true;
      requestAnimationFrame(() => requestAnimationFrame(() => {
        API.firstRenderMs = performance.now();
        API.ready = true;
      }));
    }
  }
  // ms per full draw, drawn n times and waited for (benchmarks/html_page.py)
  API.drawMs = (n = 5) => {
    const gl = renderer.getContext(), t = performance.now();
    for (let i = 0; i < n; i++) { render(); gl.finish(); }
    return (performance.now() - t) / n;
  };
  // frames per second of a rotation about the vertical through the target, one step a frame, for ms
  // (benchmarks/html_page.py; as a drag does it: the controls' change asks for the one draw of the frame)
  API.spin = (ms = 2000) => new Promise(done => {
    const t0 = performance.now(), n0 = API.renders, q = new THREE.Quaternion().setFromAxisAngle(camera.up, 0.02);
    controls.dispatchEvent({ type: 'start' });
    function step() {
      const now = performance.now();
      if (now - t0 > ms) { controls.dispatchEvent({ type: 'end' }); done((API.renders - n0) / ((now - t0) / 1000)); return; }
      camera.position.sub(controls.target).applyQuaternion(q).add(controls.target);
      controls.update();
      controls.dispatchEvent({ type: 'change' });
      requestAnimationFrame(step);
    }
    requestAnimationFrame(step);
  });
  let pending = false;
  function requestRender() {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => { pending = false; render(); });
  }
  controls.addEventListener('change', requestRender);
  // a large structure is drawn at half resolution while it moves (a drag), at full resolution once it stops
  const fullRatio = renderer.getPixelRatio();
  controls.addEventListener('start', () => { if (BIG) { renderer.setPixelRatio(fullRatio / 2); requestRender(); } });
  controls.addEventListener('end', () => { if (BIG) { renderer.setPixelRatio(fullRatio); requestRender(); } });

  function resize() {
    const w = view.clientWidth, h = view.clientHeight;
    renderer.setSize(w, h, false);
    camera.aspect = w / Math.max(h, 1);
    camera.updateProjectionMatrix();
    for (const k in hingeMats) hingeMats[k].resolution.set(w, h);
    requestRender();                    // drawn once, at the next frame, whatever asked for it
  }
  new ResizeObserver(resize).observe(view);

  // ---------------------------------------------------------------- colour bar and legend
  function drawBar() {
    const c = coloring(), bar = document.getElementById('bar'), ctx = bar.getContext('2d');
    const lab = document.getElementById('caption'), bad = document.getElementById('nonfinite');
    bar.style.display = c ? 'block' : 'none';
    document.getElementById('barlabels').style.display = c ? 'flex' : 'none';
    document.getElementById('barunit').textContent = '';
    if (!c) {
      lab.textContent = colorBy === 'mv' ? 'hinges coloured by fold: mountain red, valley blue, flat grey'
        : 'hinges coloured by kind';
      bad.textContent = '';
      return;
    }
    const lut = luts[c.cmap], n = lut.length / 3;
    for (let i = 0; i < bar.width; i++) {
      const j = Math.min(Math.floor(i / bar.width * n), n - 1);
      ctx.fillStyle = `rgb(${lut[3 * j]},${lut[3 * j + 1]},${lut[3 * j + 2]})`;
      ctx.fillRect(i, 0, 1, bar.height);
    }
    const sc = scaled(c);
    document.getElementById('barmin').textContent = logScale ? short(Math.max(Math.abs(sc.vmax) * 1e-6,
      Math.abs(sc.vmin))) : short(sc.vmin);
    document.getElementById('barmax').textContent = short(sc.vmax);
    document.getElementById('barunit').textContent = unitOf(c.unit) ? `[${unitOf(c.unit)}]` : '';
    lab.textContent = c.caption + (logScale ? ' (log scale of |value|)' : '');
    let k = 0;
    for (let h = 0; h < H; h++) if (!Number.isFinite(c.vals[h])) k++;
    bad.textContent = k ? `${k} hinge${k > 1 ? 's' : ''} NaN or infinite: drawn magenta, on neither map` : '';
  }
  function drawLegend() {
    const kinds = states[current].kindIdx, n = {};
    for (let h = 0; h < H; h++) { const k = G.kind_names[kinds[h]]; n[k] = (n[k] || 0) + 1; }
    const byKind = colorBy === 'kind';
    document.getElementById('kinds').innerHTML = Object.keys(n).map(k => {
      const s = G.kind_styles[k], c = byKind ? s.color.map(x => Math.round(255 * x)) : [90, 90, 90];
      return `<div class="kind" data-kind="${esc(k)}"><span class="legend-line" style="border-top-style:` +
        `${s.dashed ? 'dashed' : 'solid'};border-top-color:rgb(${c})"></span>${esc(k)} hinges ${esc(s.line)}` +
        ` (${n[k]})</div>`;
    }).join('');
    document.getElementById('marks').textContent =
      `supports: ${G.supports.length} (red cones: pinned; spheres: partly held; green arrows: reactions); ` +
      `loads: ${rawLoads.length} (orange arrows${loads.length < rawLoads.length ? `, drawn as ${loads.length} resultants of ` +
      'the loads near each other' : ''}; the largest force 10 % of the size)`;
  }
  const select = document.getElementById('colorby');
  function fillSelect() {
    const keys = Object.keys(states[current].colorings);
    const opts = keys.concat(hasAngles ? ['mv', 'kind'] : ['kind']);
    if (select.options.length !== opts.length || [...select.options].some((o, i) => o.value !== opts[i])) {
      select.innerHTML = opts.map(k => `<option value="${esc(k)}">${esc(k === 'kind' ? 'hinge kind' : k === 'mv' ? 'mountain / valley' : k)}</option>`).join('');
    }
    if (colorBy === null || !opts.includes(colorBy)) colorBy = opts.includes(D.color_by) ? D.color_by : opts[0];
    if (API.firstColor === undefined) API.firstColor = colorBy;
    select.value = colorBy;
  }
  select.addEventListener('change', () => { colorBy = select.value; refresh(); });
  API.setColorBy = c => { colorBy = c; refresh(); };

  // ---------------------------------------------------------------- tables
  const tablesBox = document.getElementById('tables');
  const PAGE = 100;
  function tableView(t, key) {
    const box = document.createElement('div');
    box.className = 'tbl';
    box.dataset.title = t.title;
    const k = t.header.length;
    let order = Array.from({ length: t.n }, (_, i) => i), page = 0, sortCol = -1, asc = true;
    function val(r, c) { return t.values[r * k + c]; }
    function draw() {
      const a = page * PAGE, b = Math.min(a + PAGE, t.n);
      const head = t.header.map((h, c) => `<th data-col="${c}">${esc(h)}${c === sortCol ? (asc ? ' ▲' : ' ▼') : ''}</th>`).join('');
      const unitRow = t.units.some(u => u) ?
        `<tr class="units">${t.units.map(u => `<th class="unit">${u ? '[' + esc(unitOf(u)) + ']' : ''}</th>`).join('')}</tr>` : '';
      const body = [];
      for (let i = a; i < b; i++) {
        const r = order[i];
        body.push(`<tr data-row="${r}"${t.hinge_table && val(r, 0) - 1 === selected ? ' class="sel"' : ''}>` +
          t.header.map((_, c) => `<td>${cellText(val(r, c), c < t.ints, t.tops[c])}</td>`).join('') + '</tr>');
      }
      const pages = Math.max(1, Math.ceil(t.n / PAGE));
      box.innerHTML = `<h3>${esc(t.title)}</h3>` +
        (t.n > PAGE ? `<div class="pager"><button data-go="-1">previous</button>rows ${a + 1}–${b} of ${t.n}` +
          `<button data-go="1">next</button> (page ${page + 1} of ${pages})</div>` : '') +
        `<div class="scroll"><table><thead><tr class="names">${head}</tr>${unitRow}</thead>` +
        `<tbody>${body.join('')}</tbody></table></div>`;
    }
    box.addEventListener('click', e => {
      const th = e.target.closest('th[data-col]'), go = e.target.closest('button'), tr = e.target.closest('tbody tr');
      if (tr && t.hinge_table) {            // a row: its hinge selected and framed in the view
        selectHinge(val(+tr.dataset.row, 0) - 1, true);
      } else if (th) {
        const c = +th.dataset.col;
        asc = c === sortCol ? !asc : true;
        sortCol = c;
        const s = asc ? 1 : -1;
        order.sort((x, y) => {           // NaN last either way
          const u = val(x, c), v = val(y, c);
          if (Number.isNaN(u) || Number.isNaN(v)) return Number.isNaN(u) - Number.isNaN(v);
          return s * (u - v) || x - y;
        });
        page = 0;
        draw();
      } else if (go) {
        page = Math.min(Math.max(page + +go.dataset.go, 0), Math.ceil(t.n / PAGE) - 1);
        draw();
      }
    });
    draw();
    box.id = key;
    box.redraw = draw;
    box.showRowOf = h => {                   // the page holding hinge h's first row, scrolled to
      if (!t.hinge_table) return;
      const i = order.findIndex(r => val(r, 0) - 1 === h);
      if (i < 0) return;
      page = Math.floor(i / PAGE);
      draw();
      const row = box.querySelector('tr.sel');
      if (row && row.scrollIntoView) row.scrollIntoView({ block: 'nearest' });
    };
    return box;
  }
  function drawTables() {
    tablesBox.innerHTML = '';
    states[current].tables.forEach((t, i) => tablesBox.appendChild(tableView(t, `state-table-${i}`)));
    pageTables.forEach((t, i) => tablesBox.appendChild(tableView(t, `page-table-${i}`)));
  }

  // ---------------------------------------------------------------- hover and click: a hinge's actions
  const tip = document.getElementById('tooltip');
  let pinnedHinge = -1, selected = -1;
  // select hinge h (0-based; -1: none): its rows marked in the tables, the tooltip kept; frame: the view turned to it
  function selectHinge(h, frame) {
    selected = h;
    API.selected = h + 1;
    tablesBox.querySelectorAll('.tbl').forEach(b => b.showRowOf ? (h >= 0 ? b.showRowOf(h) : b.redraw()) : 0);
    if (h < 0) { pinnedHinge = -1; showTip(-1); return; }
    if (frame) {
      const X = states[current].X, a = hingeV[2 * h], b = hingeV[2 * h + 1];
      const mid = new THREE.Vector3((X[3 * a] + X[3 * b]) / 2, (X[3 * a + 1] + X[3 * b + 1]) / 2, (X[3 * a + 2] + X[3 * b + 2]) / 2);
      camera.position.add(mid.clone().sub(controls.target));
      controls.target.copy(mid);
      controls.update();
      camera.updateMatrixWorld();
    }
    pinnedHinge = h;
    const s = API.hingeScreen(h + 1), r = canvas.getBoundingClientRect();
    showTip(h, s.x - r.left, s.y - r.top);
    requestRender();
  }
  API.selectHinge = h1 => selectHinge(h1 - 1, true);
  function hingeRows(h) {               // rows of the state's hinge table for 0-based hinge h
    const s = states[current], t = s.tables.find(x => x.hinge_table);
    if (!t) return null;
    if (!t.byHinge) {
      t.byHinge = new Map();
      const k = t.header.length;
      for (let r = 0; r < t.n; r++) {
        const hh = t.values[r * k] - 1;
        if (!t.byHinge.has(hh)) t.byHinge.set(hh, []);
        t.byHinge.get(hh).push(r);
      }
    }
    return { t, rows: t.byHinge.get(h) || [] };
  }
  function projectAll() {
    const m = new THREE.Matrix4().multiplyMatrices(camera.projectionMatrix, camera.matrixWorldInverse).elements;
    const w = canvas.clientWidth, hgt = canvas.clientHeight, X = states[current].X;
    const P = new Float64Array(3 * V);
    for (let i = 0; i < V; i++) {
      const x = X[3 * i], y = X[3 * i + 1], z = X[3 * i + 2];
      const cw = m[3] * x + m[7] * y + m[11] * z + m[15];
      P[3 * i] = ((m[0] * x + m[4] * y + m[8] * z + m[12]) / cw + 1) / 2 * w;
      P[3 * i + 1] = (1 - (m[1] * x + m[5] * y + m[9] * z + m[13]) / cw) / 2 * hgt;
      P[3 * i + 2] = cw > 0 ? (m[2] * x + m[6] * y + m[10] * z + m[14]) / cw : NaN;
    }
    return P;
  }
  // the hinge under the pointer (CSS px in the canvas), within 8 px, that is seen: nearest the pointer, then nearest
  // the eye; a hinge behind the panels drawn (a ray from the eye meets a panel first) or hidden is not picked
  const ray = new THREE.Raycaster();
  function occluded(h, u) {
    if (!mesh.visible) return false;
    const X = states[current].X, a = hingeV[2 * h], b = hingeV[2 * h + 1];
    const p = new THREE.Vector3(X[3 * a] + u * (X[3 * b] - X[3 * a]), X[3 * a + 1] + u * (X[3 * b + 1] - X[3 * a + 1]),
      X[3 * a + 2] + u * (X[3 * b + 2] - X[3 * a + 2]));
    const dir = p.clone().sub(camera.position), dist = dir.length();
    ray.set(camera.position, dir.normalize());
    ray.far = dist;
    const hit = ray.intersectObject(mesh, false);
    return hit.length > 0 && hit[0].distance < dist - 1e-3 * radius;
  }
  function pick(mx, my) {
    const P = projectAll(), found = [];
    for (let h = 0; h < H; h++) {
      if (!hingeShown(h)) continue;
      const a = hingeV[2 * h], b = hingeV[2 * h + 1];
      if (!(P[3 * a + 2] <= 1 && P[3 * b + 2] <= 1)) continue;
      const ax = P[3 * a], ay = P[3 * a + 1], bx = P[3 * b], by = P[3 * b + 1];
      const dx = bx - ax, dy = by - ay, l2 = dx * dx + dy * dy;
      const u = l2 > 0 ? Math.min(Math.max(((mx - ax) * dx + (my - ay) * dy) / l2, 0), 1) : 0;
      const d = Math.hypot(mx - ax - u * dx, my - ay - u * dy);
      if (d > 8) continue;
      found.push({ h, u, d: Math.round(d), z: P[3 * a + 2] + u * (P[3 * b + 2] - P[3 * a + 2]) });
    }
    found.sort((x, y) => x.d - y.d || x.z - y.z);
    // a hinge drawn over another (within a pixel, farther from the eye) is behind it: only the front one is seen
    const seen = found.filter(c => !found.some(o => o !== c && Math.abs(o.d - c.d) <= 1 && o.z < c.z - 1e-7));
    for (const c of seen) if (!occluded(c.h, c.u)) return c.h;
    return -1;
  }
  // the hinge (1-based, 0: none) a pointer at page coordinates (CSS px) picks
  API.pick = (x, y) => { const r = canvas.getBoundingClientRect(); return pick(x - r.left, y - r.top) + 1; };
  API.seen = h1 => { const s = API.hingeScreen(h1); return API.pick(s.x, s.y) === h1; };
  function showTip(h, mx, my) {
    if (h < 0) { tip.hidden = true; tip.dataset.hinge = ''; return; }
    const s = states[current], kind = G.kind_names[s.kindIdx[h]], c = coloring();
    const hr = hingeRows(h), ctop = c ? colorTop(c) : 0;
    let html = `<div class="tiphead">hinge <b id="tiphinge">${h + 1}</b> (${esc(kind)})` +
      (c ? `; ${esc(c.component)} = <span id="tipvalue">${cellText(c.vals[h], false, ctop)}</span>` +
        ` <span class="unit" id="tipunit">${esc(unitOf(c.unit))}</span>` : '') +
      (D.kind !== 'static' && foldAngle(h) !== null ? `; fold angle <span id="tipangle">${eng(foldAngle(h), 0)}</span> deg` : '') +
      '</div>';
    if (hr) {
      const k = hr.t.header.length;
      const cell = (r, j) => cellText(hr.t.values[r * k + j], j < hr.t.ints, hr.t.tops[j]);
      const unit = j => hr.t.units[j] ? esc(unitOf(hr.t.units[j])) : '';
      if (k <= 10) {
        html += `<table><tr class="names">${hr.t.header.map(x => `<th>${esc(x)}</th>`).join('')}</tr>` +
          `<tr class="units">${hr.t.header.map((_, j) => `<th class="unit">${unit(j) ? '[' + unit(j) + ']' : ''}</th>`).join('')}</tr>` +
          hr.rows.map(r => `<tr class="side">` + hr.t.header.map((_, j) => `<td>${cell(r, j)}</td>`).join('') +
            '</tr>').join('') + '</table>';
      } else {                              // a wide table (statistics): one row per column, one column per side
        html += `<table class="transposed">` + hr.t.header.map((x, j) => `<tr><th>${esc(x)}</th>` +
          hr.rows.map(r => `<td>${cell(r, j)}</td>`).join('') + `<td class="unit">${unit(j)}</td></tr>`).join('') +
          '</table>';
      }
    }
    tip.innerHTML = html;
    tip.dataset.hinge = String(h + 1);
    tip.hidden = false;
    const w = view.clientWidth, hh = view.clientHeight;      // the box inside the view, beside the pointer
    let left = mx + 14, top = my + 14;
    if (left + tip.offsetWidth > w - 2) left = Math.max(mx - 14 - tip.offsetWidth, 2);
    if (top + tip.offsetHeight > hh - 2) top = Math.max(my - 14 - tip.offsetHeight, 2);
    tip.style.left = Math.min(left, Math.max(w - tip.offsetWidth - 2, 0)) + 'px';
    tip.style.top = Math.min(top, Math.max(hh - tip.offsetHeight - 2, 0)) + 'px';
    tip.dataset.x = String(mx); tip.dataset.y = String(my);
  }
  let hoverAt = null;
  canvas.addEventListener('pointermove', e => {
    if (pinnedHinge >= 0 || e.buttons) return;
    const r = canvas.getBoundingClientRect();
    const first = hoverAt === null;
    hoverAt = [e.clientX - r.left, e.clientY - r.top];
    if (first) requestAnimationFrame(() => { const [x, y] = hoverAt; hoverAt = null; showTip(pick(x, y), x, y); });
  });
  canvas.addEventListener('pointerleave', () => { if (pinnedHinge < 0) showTip(-1); });
  let down = null;
  canvas.addEventListener('pointerdown', e => { down = [e.clientX, e.clientY]; });
  canvas.addEventListener('pointerup', e => {
    if (!down || Math.hypot(e.clientX - down[0], e.clientY - down[1]) > 3) return;   // a drag, not a click
    const r = canvas.getBoundingClientRect(), x = e.clientX - r.left, y = e.clientY - r.top;
    const h = pick(x, y);
    if (h >= 0) { selectHinge(h, false); return; }    // pins it and shows its tooltip at the hinge
    pinnedHinge = -1;
    showTip(-1);
  });
  // where a hinge's midpoint is drawn: page coordinates (CSS px), for a pointer to go there
  API.hingeScreen = h1 => {
    const P = projectAll(), a = hingeV[2 * (h1 - 1)], b = hingeV[2 * (h1 - 1) + 1], r = canvas.getBoundingClientRect();
    return { x: r.left + (P[3 * a] + P[3 * b]) / 2, y: r.top + (P[3 * a + 1] + P[3 * b + 1]) / 2 };
  };
  API.vertexScreen = v1 => {
    const P = projectAll(), r = canvas.getBoundingClientRect();
    return { x: r.left + P[3 * (v1 - 1)], y: r.top + P[3 * (v1 - 1) + 1] };
  };

  // ---------------------------------------------------------------- states: frames, before and after
  function refresh() {
    fillSelect();
    drawHinges();
    drawBar();
    drawLegend();
    if (pinnedHinge >= 0 && !tip.hidden) showTip(pinnedHinge, +tip.dataset.x, +tip.dataset.y);
    requestRender();
  }
  function setState(k) {
    current = Math.min(Math.max(k | 0, 0), states.length - 1);
    place(states[current].X);
    document.getElementById('statelabel').textContent = states[current].label;
    document.getElementById('statenote').textContent = states[current].note || '';
    contactMesh.visible = !!states[current].contact;
    API.contact = states[current].contact || null;      // the pair (1-based) marked red, or null
    slider.value = String(current);
    document.querySelectorAll('#designbox input').forEach(b => { b.checked = +b.value === current; });
    drawTables();
    refresh();
    API.state = current;
  }
  API.setState = setState;
  API.drawnVertices = () => pos;      // the positions drawn now (float32, n_drawn x 3: the pattern's V first)
  API.drawnTriangles = () => meshGeom.index.count / 3;            // the panels' triangles drawn
  API.contactTriangles = () => contactMesh.visible ? contactGeom.index.count / 3 : 0;   // drawn red now
  API.nStates = states.length;
  const slider = document.getElementById('frames');
  const playButton = document.getElementById('play');
  let timer = null;
  if (states.length > 1) {
    document.getElementById('statebox').hidden = false;
    if (D.kind === 'design') {
      document.getElementById('statetitle').textContent = 'design: before and after';
      const box = document.getElementById('designbox');
      box.hidden = false;
      box.innerHTML = states.map((s, i) => `<label><input type="radio" name="design" value="${i}" id="state-${i}">` +
        `${esc(s.label.split(':')[0])}</label> `).join('');
      box.addEventListener('change', e => setState(+e.target.value));
    } else if (D.modes && D.modes.length) {
      // a modal analysis: a mode chosen from the list, its cycle on the slider, played round and round
      document.getElementById('statetitle').textContent = 'modes';
      document.getElementById('modebox').hidden = false;
      document.getElementById('framebox').hidden = false;
      const modeSelect = document.getElementById('modeselect');
      modeSelect.innerHTML = D.modes.map((m, i) => `<option value="${i}">${esc(m.label)}</option>`).join('');
      let mode = D.modes[0];
      const chooseMode = i => {
        mode = D.modes[i];
        modeSelect.value = String(i);
        slider.min = '0';
        slider.max = String(mode.n - 1);
        setState(mode.start);
        slider.value = '0';
        API.mode = i + 1;
      };
      modeSelect.addEventListener('change', () => chooseMode(+modeSelect.value));
      slider.addEventListener('input', () => { setState(mode.start + +slider.value); slider.value = String(current - mode.start); });
      playButton.addEventListener('click', () => {
        if (timer) { clearInterval(timer); timer = null; playButton.textContent = 'play'; return; }
        playButton.textContent = 'pause';
        timer = setInterval(() => {
          setState(mode.start + (current - mode.start + 1) % mode.n);
          slider.value = String(current - mode.start);
        }, 80);
      });
      API.chooseMode = chooseMode;
      API.nModes = D.modes.length;
    } else {
      document.getElementById('statetitle').textContent = 'frames';
      document.getElementById('framebox').hidden = false;
      slider.max = String(states.length - 1);
      slider.addEventListener('input', () => setState(+slider.value));
      playButton.addEventListener('click', () => {
        if (timer) { clearInterval(timer); timer = null; playButton.textContent = 'play'; return; }
        if (current === states.length - 1) setState(0);
        playButton.textContent = 'pause';
        timer = setInterval(() => {
          if (current >= states.length - 1) { clearInterval(timer); timer = null; playButton.textContent = 'play'; return; }
          setState(current + 1);
        }, 150);
      });
    }
  }
  if (D.figure) {       // a deployment: its torque plot beside the 3-D view
    document.getElementById('figurebox').hidden = false;
    document.getElementById('figure').src = 'data:image/png;base64,' + D.figure;
  }
  // ---------------------------------------------------------------- views: reset and the standard views
  const VIEWS = { iso: [Math.cos(el) * Math.cos(az), Math.cos(el) * Math.sin(az), Math.sin(el)],
    top: [0, -1e-6, 1], bottom: [0, 1e-6, -1], front: [0, -1, 0], back: [0, 1, 0], left: [-1, 0, 0], right: [1, 0, 0] };
  function setView(name) {
    const d = VIEWS[name] || VIEWS.iso;
    controls.target.copy(center);
    camera.position.set(center.x + 2.6 * radius * d[0], center.y + 2.6 * radius * d[1], center.z + 2.6 * radius * d[2]);
    camera.up.set(0, 0, 1);
    controls.update();
    camera.updateMatrixWorld();
    requestRender();
  }
  API.setView = setView;
  document.getElementById('views').addEventListener('click', e => {
    const b = e.target.closest('button[data-view]');
    if (b) setView(b.dataset.view);
  });
  // the layers' switches
  {
    const kindsHere = [...new Set(states.flatMap(s => [...s.kindIdx].map(i => G.kind_names[i])))];
    const names = [['panels', 'panels'], ...kindsHere.map(k => ['kind:' + k, k + ' hinges']),
      ...(hasAngles ? [['mountain', 'mountain hinges'], ['valley', 'valley hinges'], ['flat', 'flat hinges']] : []),
      ['supports', 'supports and reactions'], ['loads', 'loads'], ['labels', 'hinge numbers'],
      ...(displaced ? [["displaced", "displaced shape"]] : [])];
    hidden.add('labels');
    const box = document.getElementById('layers');
    box.innerHTML = names.map(([k, t]) => `<label><input type="checkbox" data-layer="${esc(k)}"${hidden.has(k) ? '' : ' checked'}> ${esc(t)}</label>`).join(' ');
    box.addEventListener('change', e => { const b = e.target; if (b.dataset.layer) setLayer(b.dataset.layer, b.checked); });
  }

  // ---------------------------------------------------------------- display controls
  const digits = document.getElementById('alldigits');
  function setAllDigits(on) {
    allDigits = !!on;
    digits.checked = allDigits;
    tablesBox.querySelectorAll('.tbl').forEach(b => b.redraw());
    if (!tip.hidden && tip.dataset.hinge) showTip(+tip.dataset.hinge - 1, +tip.dataset.x, +tip.dataset.y);
  }
  digits.addEventListener('change', () => setAllDigits(digits.checked));
  API.setAllDigits = setAllDigits;
  const rmin = document.getElementById('rangemin'), rmax = document.getElementById('rangemax');
  function readRange() {
    const a = parseFloat(rmin.value), b = parseFloat(rmax.value);
    scaleMin = Number.isFinite(a) ? a : null;
    scaleMax = Number.isFinite(b) ? b : null;
    logScale = document.getElementById('logscale').checked;
    refresh();
  }
  [rmin, rmax].forEach(x => x.addEventListener('change', readRange));
  document.getElementById('logscale').addEventListener('change', readRange);
  API.setScale = (lo, hi, log) => { rmin.value = lo === null ? '' : String(lo); rmax.value = hi === null ? '' : String(hi);
    document.getElementById('logscale').checked = !!log; readRange(); };
  const goto = document.getElementById('gotohinge');
  goto.addEventListener('change', () => {
    const h = parseInt(goto.value, 10);
    if (h >= 1 && h <= H) selectHinge(h - 1, true);
  });
  if (D.caveats && D.caveats.length) {
    const box = document.getElementById('caveats');
    box.hidden = false;
    box.innerHTML = D.caveats.map(c => `<div>${esc(c)}</div>`).join('');
  }
  document.getElementById('unitsnote').textContent = 'units: ' + (UNITS.note || UNITS.force);

  resize();
  if (API.chooseMode) API.chooseMode(0);
  else setState(D.kind === 'design' ? states.length - 1 : 0);
  applyLayers();
})();
