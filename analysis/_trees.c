/* Flux weights and projectivity of many dependency trees, tree by tree, in one pass.
 *
 * Why C: the numpy versions in analysis/trees.py work on whole batches with sorts and np.unique over
 * (position, vertex) rows; at a million words they were about 0.85 s (flux weights) and 0.5 s
 * (projectivity) of the treebank ingest's main thread. Here each tree is done with counting
 * sorts and one scan of its rows, O(n + D) for n words and dependency lengths summing to D.
 *
 * An accelerator, not a second definition: analysis/trees.py stays the definition and the fallback
 * (when this module is not built), and tests/test_tree_algorithms.py checks that both give the same values
 * on every real treebank and on random trees, projective and not.
 *
 *   - Flux of the gap between positions i and i+1: the arcs (h, d) with min(h, d) <= i < max(h, d).
 *     Its weight is a maximum matching of the flux forest, found bottom up: a vertex is matched to one
 *     of its flux children iff some flux child is not matched below. The arcs of each gap are visited
 *     deepest child first, so a child's state is final when its arc to its head is seen.
 *     Computed only for the trees the caller selects (the others go to the sweep in trees.py).
 *   - Projective: no two arcs cross, the root arcs (0, r) included; arcs sharing an end point do not
 *     cross. Arcs sorted by start ascending, end descending; a stack of open arcs; an arc crosses iff
 *     the innermost open arc that ends after its start ends before its end.
 *
 * Input: the trees already validated by trees.py (heads in range, no cycle, depths computed).
 *
 * Also here: dependency_lineages, the lineages of the dependency leaf-ancestor metric with the parts the
 * shared DP tables need (analysis/dependency_eval.py, _lineages_and_parts_python, is the definition and
 * the fallback; tests/test_lineage_kernel.py compares the two on every real file and on random trees).
 * Why C: in Python it was 0.09 s of an `ingest dependency-run` on en_ewt (25k words), whose whole
 * process then took as long as the CoNLL 2018 script.
 *
 * And lineage_distance, the Levenshtein DP between two lineages of the leaf-ancestor metric
 * (analysis/leaf_ancestor.py, _lineage_distance_python, is the definition and the fallback): the same
 * additions and comparisons in the same order on doubles, so the same floats for any cost table.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int64_t *tmp, *order, *count, *lo, *hi, *rows, *start, *stack;
    char *matched;
    Py_ssize_t words, rows_cap;
} Work;

static int reserve(Work *w, Py_ssize_t n, Py_ssize_t rows) {
    if (n > w->words) {
        Py_ssize_t c = n < 64 ? 64 : n;
        int64_t **arrays[] = {&w->tmp, &w->order, &w->count, &w->lo, &w->hi, &w->start, &w->stack};
        for (size_t k = 0; k < sizeof arrays / sizeof arrays[0]; k++) {
            int64_t *p = realloc(*arrays[k], (size_t)(c + 2) * sizeof(int64_t));
            if (!p) { PyErr_NoMemory(); return -1; }
            *arrays[k] = p;
        }
        char *m = realloc(w->matched, (size_t)(c + 2));
        if (!m) { PyErr_NoMemory(); return -1; }
        w->matched = m;
        w->words = c;
    }
    if (rows > w->rows_cap) {
        Py_ssize_t c = rows < 256 ? 256 : rows;
        int64_t *p = realloc(w->rows, (size_t)c * sizeof(int64_t));
        if (!p) { PyErr_NoMemory(); return -1; }
        w->rows = p;
        w->rows_cap = c;
    }
    return 0;
}

static void work_free(Work *w) {
    free(w->tmp); free(w->order); free(w->count); free(w->lo); free(w->hi); free(w->rows);
    free(w->start); free(w->stack); free(w->matched);
}

/* Words (0-based, local) with a head, ordered deepest first: a counting sort on depth. */
static Py_ssize_t deepest_first(const int64_t *head, const int64_t *depth, Py_ssize_t n, Work *w) {
    int64_t max_depth = 0;
    for (Py_ssize_t v = 0; v < n; v++)
        if (depth[v] > max_depth) max_depth = depth[v];
    memset(w->count, 0, (size_t)(max_depth + 2) * sizeof(int64_t));
    for (Py_ssize_t v = 0; v < n; v++)
        if (head[v] > 0) w->count[max_depth - depth[v] + 1]++;
    for (int64_t d = 0; d <= max_depth; d++) w->count[d + 1] += w->count[d];
    for (Py_ssize_t v = 0; v < n; v++)
        if (head[v] > 0) w->order[w->count[max_depth - depth[v]]++] = v;
    return (Py_ssize_t)w->count[max_depth];
}

/* Flux weights of one tree of n words into weights[0 .. n-2]. Gap g lies between words g and g+1
 * (0-based); an arc between words lo < hi crosses gaps lo .. hi-1. Its rows (one per gap crossed) are
 * laid out gap by gap in w->rows, each gap's in deepest-first order. */
static void flux_weights(const int64_t *head, const int64_t *depth, Py_ssize_t n, int64_t *weights, Work *w) {
    Py_ssize_t arcs = deepest_first(head, depth, n, w);
    int64_t *fill = w->start;  /* first the flux sizes, then where gap g's next row goes */
    memset(fill, 0, (size_t)(n + 1) * sizeof(int64_t));
    for (Py_ssize_t k = 0; k < arcs; k++) {
        int64_t v = w->order[k], h = head[v] - 1;
        fill[v < h ? v : h]++;
        fill[v < h ? h : v]--;
    }
    int64_t size = 0, total = 0;
    for (Py_ssize_t g = 0; g < n; g++) {
        size += fill[g];  /* the flux size of gap g */
        fill[g] = total;
        total += size;
    }
    for (Py_ssize_t k = 0; k < arcs; k++) {
        int64_t v = w->order[k], h = head[v] - 1;
        for (int64_t g = v < h ? v : h, hi = v < h ? h : v; g < hi; g++) w->rows[fill[g]++] = v;
    }
    memset(w->matched, 0, (size_t)n);
    int64_t begin = 0;
    for (Py_ssize_t g = 0; g + 1 < n; g++) {
        int64_t end = fill[g], weight = 0;  /* gap g's rows are begin .. end-1 */
        for (int64_t r = begin; r < end; r++) {
            int64_t v = w->rows[r], h = head[v] - 1;
            if (!w->matched[v] && !w->matched[h]) { w->matched[h] = 1; weight++; }
        }
        for (int64_t r = begin; r < end; r++) {
            int64_t v = w->rows[r];
            w->matched[v] = 0;
            w->matched[head[v] - 1] = 0;
        }
        weights[g] = weight;
        begin = end;
    }
}

/* Whether one tree's arcs, root arcs (0, r) included, nest. Positions are 1-based here. */
static int projective(const int64_t *head, Py_ssize_t n, Work *w) {
    /* counting sort of the n arcs by end descending, then stably by start ascending */
    int64_t *lo = w->lo, *hi = w->hi, *by_end = w->tmp, *order = w->order, *count = w->count;
    for (Py_ssize_t v = 0; v < n; v++) {
        int64_t a = head[v], b = v + 1;
        lo[v] = a < b ? a : b;
        hi[v] = a < b ? b : a;
    }
    memset(count, 0, (size_t)(n + 2) * sizeof(int64_t));
    for (Py_ssize_t v = 0; v < n; v++) count[n - hi[v] + 1]++;
    for (Py_ssize_t k = 0; k <= n; k++) count[k + 1] += count[k];
    for (Py_ssize_t v = 0; v < n; v++) by_end[count[n - hi[v]]++] = v;
    memset(count, 0, (size_t)(n + 2) * sizeof(int64_t));
    for (Py_ssize_t v = 0; v < n; v++) count[lo[v] + 1]++;
    for (Py_ssize_t k = 0; k <= n; k++) count[k + 1] += count[k];
    for (Py_ssize_t k = 0; k < n; k++) {
        int64_t v = by_end[k];
        order[count[lo[v]]++] = v;
    }
    Py_ssize_t top = 0;
    for (Py_ssize_t k = 0; k < n; k++) {
        int64_t v = order[k];
        while (top && hi[w->stack[top - 1]] <= lo[v]) top--;
        if (top && hi[w->stack[top - 1]] < hi[v]) return 0;
        w->stack[top++] = v;
    }
    return 1;
}

/* A C-contiguous buffer of one integer kind: 'i' int64, 'b' one byte (uint8 or bool). */
static int get_buffer(PyObject *obj, Py_buffer *view, int writable, char kind, const char *name) {
    if (PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0)) < 0)
        return -1;
    const char *f = view->format ? view->format : "B";
    if (*f == '@' || *f == '=' || *f == '<') f++;
    int ok = kind == 'i' ? view->itemsize == 8 && (!strcmp(f, "q") || !strcmp(f, "l"))
                         : view->itemsize == 1 && (!strcmp(f, "B") || !strcmp(f, "?"));
    if (!ok) {
        PyErr_Format(PyExc_TypeError, "%s: expected %s items", name, kind == 'i' ? "int64" : "uint8 or bool");
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

static PyObject *tree_metrics(PyObject *self, PyObject *args) {
    PyObject *objs[7];
    const char *names[7] = {"heads", "depth", "offsets", "gap_offsets", "weigh", "weights", "projective"};
    const int writable[7] = {0, 0, 0, 0, 0, 1, 1};
    const char kinds[7] = {'i', 'i', 'i', 'i', 'b', 'i', 'b'};
    Py_buffer views[7];
    int got = 0;
    PyObject *result = NULL;
    Work w = {0};
    int64_t *copy = NULL;
    if (!PyArg_ParseTuple(args, "OOOOOOO", &objs[0], &objs[1], &objs[2], &objs[3], &objs[4], &objs[5], &objs[6]))
        return NULL;
    for (; got < 7; got++)
        if (get_buffer(objs[got], &views[got], writable[got], kinds[got], names[got]) < 0) goto done;
    Py_ssize_t n_words = views[0].len / 8, n_trees = views[6].len, n_gaps = views[5].len / 8;
    if (views[1].len / 8 != n_words || views[2].len / 8 != n_trees + 1 || views[3].len / 8 != n_trees + 1 ||
        views[4].len != n_trees) {
        PyErr_SetString(PyExc_ValueError, "tree_metrics: arrays of inconsistent lengths");
        goto done;
    }
    /* The inputs are copied, checked and read from the copy only: another thread (the GIL is released
     * below) or an output that shares memory with an input cannot change what was checked. */
    size_t words = (size_t)n_words, trees = (size_t)n_trees;
    copy = malloc((2 * words + 3 * trees + 2) * sizeof(int64_t) + 1);
    if (!copy) { PyErr_NoMemory(); goto done; }
    int64_t *heads = copy, *depth = copy + words, *offsets = copy + 2 * words, *gaps = offsets + trees + 1;
    char *weigh = (char *)(gaps + trees + 1);
    memcpy(heads, views[0].buf, words * sizeof(int64_t));
    memcpy(depth, views[1].buf, words * sizeof(int64_t));
    memcpy(offsets, views[2].buf, (trees + 1) * sizeof(int64_t));
    memcpy(gaps, views[3].buf, (trees + 1) * sizeof(int64_t));
    memcpy(weigh, views[4].buf, trees);
    int64_t *weights = views[5].buf;
    char *proj = views[6].buf;
    if (offsets[0] != 0 || gaps[0] != 0 || offsets[n_trees] != n_words || gaps[n_trees] != n_gaps) {
        PyErr_SetString(PyExc_ValueError, "tree_metrics: arrays of inconsistent lengths");
        goto done;
    }
    Py_ssize_t most_words = 1, most_rows = 1;  /* the work space for the largest tree, with the GIL */
    for (Py_ssize_t t = 0; t < n_trees; t++) {
        int64_t a = offsets[t], n = offsets[t + 1] - offsets[t], rows = 0;
        if (n < 0 || a < 0 || a > n_words - n || gaps[t + 1] - gaps[t] != (n > 0 ? n - 1 : 0)) {
            PyErr_SetString(PyExc_ValueError, "tree_metrics: offsets do not match the trees");
            goto done;
        }
        for (int64_t v = 0; v < n; v++) {
            int64_t h = heads[a + v];
            if (h < 0 || h > n || depth[a + v] < 0 || depth[a + v] >= n) {
                PyErr_SetString(PyExc_ValueError, "tree_metrics: a head or depth out of range");
                goto done;
            }
            if (weigh[t] && h > 0) rows += h - 1 > v ? h - 1 - v : v - (h - 1);
        }
        if (n > most_words) most_words = (Py_ssize_t)n;
        if (rows > most_rows) most_rows = (Py_ssize_t)rows;
    }
    if (reserve(&w, most_words, most_rows) < 0) goto done;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t t = 0; t < n_trees; t++) {
        Py_ssize_t a = (Py_ssize_t)offsets[t], n = (Py_ssize_t)(offsets[t + 1] - offsets[t]);
        proj[t] = (char)projective(heads + a, n, &w);
        if (weigh[t] && n > 1) flux_weights(heads + a, depth + a, n, weights + gaps[t], &w);
    }
    Py_END_ALLOW_THREADS
    result = Py_None;
    Py_INCREF(result);
done:
    for (int k = 0; k < got; k++) PyBuffer_Release(&views[k]);
    work_free(&w);
    free(copy);
    return result;
}


/* dependency_lineages(head, rel, left, right) -> (lineages, above, tails), as
 * analysis/dependency_eval.py's _lineages_and_parts_python: head[k] is the index of k's head in the
 * same sequences (-1 for a root), rel[k] its relation; left and right are the two boundary markers.
 * Every tuple holds the caller's own objects. Heads out of range or a cycle raise ValueError. */
static PyObject *dependency_lineages(PyObject *self, PyObject *args) {
    PyObject *head_obj, *rel_obj, *left_marker, *right_marker;
    if (!PyArg_ParseTuple(args, "OOOO", &head_obj, &rel_obj, &left_marker, &right_marker)) return NULL;
    PyObject *heads_seq = NULL, *rels_seq = NULL, *lineages = NULL, *above = NULL, *tails = NULL;
    PyObject *result = NULL, **path = NULL, **symbols = NULL;
    int64_t *mem = NULL;
    Py_ssize_t n = 0;
    /* tuples of the two sequences (the same object for a tuple), so that no Python code run below (an
     * __index__, a finalizer) can change what is read: their items are held for the whole call */
    heads_seq = PySequence_Tuple(head_obj);
    if (!heads_seq) goto done;
    rels_seq = PySequence_Tuple(rel_obj);
    if (!rels_seq) goto done;
    n = PyTuple_GET_SIZE(heads_seq);
    if (PyTuple_GET_SIZE(rels_seq) != n) {
        PyErr_SetString(PyExc_ValueError, "dependency_lineages: head and rel of different lengths");
        goto done;
    }
    PyObject **rel = PySequence_Fast_ITEMS(rels_seq);  /* a tuple here: its items, held by it */
    size_t words = (size_t)n;
    /* head, depth, left, right, order, count (depths 0..n-1 and one more), stack */
    mem = malloc((6 * words + 2) * sizeof(int64_t));
    path = calloc(words + 1, sizeof(PyObject *));
    symbols = malloc((2 * words + 2) * sizeof(PyObject *));
    if (!mem || !path || !symbols) { PyErr_NoMemory(); goto done; }
    int64_t *head = mem, *depth = mem + words, *left = mem + 2 * words, *right = mem + 3 * words;
    int64_t *order = mem + 4 * words, *stack = mem + 5 * words, *count;
    for (Py_ssize_t k = 0; k < n; k++) {
        Py_ssize_t h = PyNumber_AsSsize_t(PyTuple_GET_ITEM(heads_seq, k), PyExc_OverflowError);
        if (h == -1 && PyErr_Occurred()) goto done;
        if (h < -1 || h >= n) {
            PyErr_Format(PyExc_ValueError, "dependency_lineages: head %zd of word %zd out of range", h, k);
            goto done;
        }
        head[k] = h;
        depth[k] = -1;
        left[k] = right[k] = k;
    }
    /* depths, each path walked once; -2 marks the words of the walk in progress, so a cycle is seen */
    for (Py_ssize_t k = 0; k < n; k++) {
        Py_ssize_t top = 0;
        int64_t j = k;
        while (j != -1 && depth[j] == -1) {
            depth[j] = -2;
            stack[top++] = j;
            j = head[j];
        }
        if (j != -1 && depth[j] == -2) {
            PyErr_SetString(PyExc_ValueError, "dependency_lineages: the heads form a cycle");
            goto done;
        }
        int64_t d = j != -1 ? depth[j] : -1;
        while (top > 0) depth[stack[--top]] = ++d;
    }
    /* words by depth (heads before their children), a counting sort; count (n + 1 entries) lives in
     * stack's space, which has n + 2 */
    count = stack;
    memset(count, 0, words * sizeof(int64_t) + sizeof(int64_t));
    for (Py_ssize_t k = 0; k < n; k++) count[depth[k] + 1]++;
    for (Py_ssize_t d = 1; d <= n; d++) count[d] += count[d - 1];
    for (Py_ssize_t k = 0; k < n; k++) order[count[depth[k]]++] = k;
    for (Py_ssize_t i = n - 1; i >= 0; i--) {  /* children before their heads */
        int64_t k = order[i], j = head[k];
        if (j != -1) {
            if (left[k] < left[j]) left[j] = left[k];
            if (right[k] > right[j]) right[j] = right[k];
        }
    }
    /* path[k]: the relations from k up to the root, its head's path with one relation more */
    for (Py_ssize_t i = 0; i < n; i++) {
        int64_t k = order[i], j = head[k];
        Py_ssize_t above_size = j != -1 ? PyTuple_GET_SIZE(path[j]) : 0;
        PyObject *t = PyTuple_New(above_size + 1);
        if (!t) goto done;
        Py_INCREF(rel[k]);
        PyTuple_SET_ITEM(t, 0, rel[k]);
        for (Py_ssize_t x = 0; x < above_size; x++) {
            PyObject *item = PyTuple_GET_ITEM(path[j], x);
            Py_INCREF(item);
            PyTuple_SET_ITEM(t, x + 1, item);
        }
        path[k] = t;
    }
    lineages = PyList_New(n);
    above = PyList_New(n);
    tails = PyList_New(n);
    if (!lineages || !above || !tails) goto done;
    for (Py_ssize_t k = 0; k < n; k++) {
        /* the marker segment: the bottom words of k's path whose leftmost or rightmost word is k */
        int64_t top_l = -1, top_r = -1, j = k;
        Py_ssize_t seg = 0;
        while (j != -1 && (left[j] == k || right[j] == k)) {
            if (left[j] == k) top_l = j;
            if (right[j] == k) top_r = j;
            stack[seg++] = j;
            j = head[j];
        }
        Py_ssize_t m = 0;
        for (Py_ssize_t x = 0; x < seg; x++) {
            int64_t u = stack[x];
            if (u == top_l) symbols[m++] = left_marker;
            symbols[m++] = rel[u];
            if (u == top_r) symbols[m++] = right_marker;
        }
        Py_ssize_t rest = j != -1 ? PyTuple_GET_SIZE(path[j]) : 0;
        PyObject *lineage;
        if (m == 0 && j != -1) {
            lineage = path[j];
            Py_INCREF(lineage);
        } else {
            lineage = PyTuple_New(m + rest);
            if (!lineage) goto done;
            for (Py_ssize_t x = 0; x < m; x++) {
                Py_INCREF(symbols[x]);
                PyTuple_SET_ITEM(lineage, x, symbols[x]);
            }
            for (Py_ssize_t x = 0; x < rest; x++) {
                PyObject *item = PyTuple_GET_ITEM(path[j], x);
                Py_INCREF(item);
                PyTuple_SET_ITEM(lineage, m + x, item);
            }
        }
        PyList_SET_ITEM(lineages, k, lineage);
        PyObject *where = PyLong_FromLongLong(j);
        if (!where) goto done;
        PyList_SET_ITEM(above, k, where);
        PyObject *tail = PyTuple_New(m);
        if (!tail) goto done;
        for (Py_ssize_t x = 0; x < m; x++) {
            Py_INCREF(symbols[m - 1 - x]);
            PyTuple_SET_ITEM(tail, x, symbols[m - 1 - x]);
        }
        PyList_SET_ITEM(tails, k, tail);
    }
    result = PyTuple_Pack(3, lineages, above, tails);
done:
    if (path)
        for (Py_ssize_t k = 0; k < n; k++) Py_XDECREF(path[k]);
    free(path);
    free(symbols);
    free(mem);
    Py_XDECREF(lineages);
    Py_XDECREF(above);
    Py_XDECREF(tails);
    Py_XDECREF(heads_seq);
    Py_XDECREF(rels_seq);
    return result;
}


/* lineage_distance(gold, cand, ids, matrix, exact) -> float, or None when a symbol is not in ids yet (the
 * caller then grows ids and matrix, LabelCost.indices, and asks again). As _lineage_distance_python:
 * with exact sums the common prefix and suffix are dropped first (equal symbols have equal ids), then
 * the DP with insertion and deletion 1 and substitution matrix[id of gold symbol][id of cand symbol]. */
#define SMALL_LINEAGE 64
static PyObject *lineage_distance(PyObject *self, PyObject *args) {
    PyObject *gold_obj, *cand_obj, *ids, *matrix;
    int exact;
    if (!PyArg_ParseTuple(args, "OOO!O!p", &gold_obj, &cand_obj, &PyDict_Type, &ids, &PyList_Type, &matrix, &exact))
        return NULL;
    PyObject *gold = NULL, *cand = NULL, *result = NULL;
    Py_ssize_t small_ids[2 * SMALL_LINEAGE];
    double small_rows[2 * (SMALL_LINEAGE + 1)];
    Py_ssize_t *id_mem = small_ids;
    double *row_mem = small_rows;
    /* tuples (the same objects when tuples are given): the lookups below run the symbols' __hash__ and
     * __eq__, which must not change what is read; the matrix is read only after the last of them */
    gold = PySequence_Tuple(gold_obj);
    if (!gold) goto done;
    cand = PySequence_Tuple(cand_obj);
    if (!cand) goto done;
    Py_ssize_t n = PyTuple_GET_SIZE(gold), m = PyTuple_GET_SIZE(cand);
    if (n > SMALL_LINEAGE || m > SMALL_LINEAGE) {
        id_mem = malloc((size_t)(n + m + 1) * sizeof(Py_ssize_t));
        row_mem = malloc((size_t)(2 * (m + 1)) * sizeof(double));
        if (!id_mem || !row_mem) { PyErr_NoMemory(); goto done; }
    }
    Py_ssize_t *g_ids = id_mem, *c_ids = id_mem + n;
    for (Py_ssize_t k = 0; k < n + m; k++) {
        PyObject *symbol = k < n ? PyTuple_GET_ITEM(gold, k) : PyTuple_GET_ITEM(cand, k - n);
        PyObject *id = PyDict_GetItemWithError(ids, symbol);
        if (!id) {
            if (!PyErr_Occurred()) { result = Py_None; Py_INCREF(result); }
            goto done;
        }
        Py_ssize_t i = PyLong_AsSsize_t(id);
        if (i == -1 && PyErr_Occurred()) goto done;
        id_mem[k] = i;
    }
    Py_ssize_t size = PyList_GET_SIZE(matrix);  /* no Python code runs from here on */
    for (Py_ssize_t k = 0; k < n + m; k++)
        if (id_mem[k] < 0 || id_mem[k] >= size) {
            PyErr_SetString(PyExc_ValueError, "lineage_distance: a symbol's id is outside the matrix");
            goto done;
        }
    Py_ssize_t start = 0;
    if (exact) {
        while (start < n && start < m && g_ids[start] == c_ids[start]) start++;
        while (n > start && m > start && g_ids[n - 1] == c_ids[m - 1]) { n--; m--; }
    }
    g_ids += start;
    c_ids += start;
    n -= start;
    m -= start;
    /* the rows of the matrix the DP reads, checked once: lists of the matrix's size (their items are
     * checked as they are read) */
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *row = PyList_GET_ITEM(matrix, g_ids[k]);
        if (!PyList_Check(row) || PyList_GET_SIZE(row) != size) {
            PyErr_SetString(PyExc_TypeError, "lineage_distance: matrix must be a square list of lists of floats");
            goto done;
        }
    }
    double *prev = row_mem, *cur = row_mem + (m + 1);
    for (Py_ssize_t j = 0; j <= m; j++) prev[j] = (double)j;
    for (Py_ssize_t i = 1; i <= n; i++) {
        PyObject *costs = PyList_GET_ITEM(matrix, g_ids[i - 1]);
        double left = (double)i;
        cur[0] = left;
        for (Py_ssize_t j = 1; j <= m; j++) {
            double best = prev[j] + 1.0, other = left + 1.0;
            if (other < best) best = other;
            PyObject *cost = PyList_GET_ITEM(costs, c_ids[j - 1]);
            if (!PyFloat_CheckExact(cost)) {
                PyErr_SetString(PyExc_TypeError, "lineage_distance: matrix must be a square list of lists of floats");
                goto done;
            }
            other = prev[j - 1] + PyFloat_AS_DOUBLE(cost);
            if (other < best) best = other;
            cur[j] = best;
            left = best;
        }
        double *t = prev;
        prev = cur;
        cur = t;
    }
    result = PyFloat_FromDouble(prev[m]);
done:
    if (id_mem != small_ids) free(id_mem);
    if (row_mem != small_rows) free(row_mem);
    Py_XDECREF(gold);
    Py_XDECREF(cand);
    return result;
}

static PyMethodDef methods[] = {
    {"tree_metrics", tree_metrics, METH_VARARGS,
     "tree_metrics(heads, depth, offsets, gap_offsets, weigh, weights, projective): per tree t, "
     "projective[t] (uint8) and, where weigh[t], its flux weights into weights[gap_offsets[t]:gap_offsets[t+1]] "
     "(heads, depth, offsets, gap_offsets, weights: int64)."},
    {"dependency_lineages", dependency_lineages, METH_VARARGS,
     "dependency_lineages(head, rel, left, right): (lineages, above, tails) of the dependency leaf-ancestor "
     "metric (see analysis/dependency_eval.py)."},
    {"lineage_distance", lineage_distance, METH_VARARGS,
     "lineage_distance(gold, cand, ids, matrix, exact): the leaf-ancestor Levenshtein distance of two lineages, "
     "or None when a symbol has no id yet (see analysis/leaf_ancestor.py)."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_trees",
                                    "Flux weights and projectivity, tree by tree (see analysis/trees.py); dependency lineages and lineage distances.", -1, methods};

PyMODINIT_FUNC PyInit__trees(void) { return PyModule_Create(&module); }
