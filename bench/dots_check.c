/* A second, independent solver for plain Dots and Boxes, to check the Pillage solver's
 * values on unit boards:  gcc -O2 -o /tmp/dots_check bench/dots_check.c && /tmp/dots_check 3 3
 *
 * Nothing is shared with plunder/games/pillage/solver.py: its own edge numbering, plain
 * negamax alpha-beta over every undrawn line (no pruning rules: none of the Dots and Boxes
 * capture, chain or endgame rules the Python unit search uses), captures searched first,
 * then the other lines nearest the centre first, and a fixed always-replace transposition
 * table of bounds on the future margin, keyed on the drawn mask or (with a fourth argument
 * "sym") on the least of its images under the board's mirror symmetries. The value is found
 * by null-window tests ("at least b?", MTD(f) from b = 0). Prints the first player's final
 * margin (boxes won minus boxes lost) with best play, the positions searched and the CPU
 * seconds taken.
 *
 * Usage: dots_check ROWS COLS [LOG2_TABLE_ENTRIES [sym]]   (boxes, at most 47 lines; the table
 * takes 8 bytes an entry, 2^26 entries by default)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static int rows, cols, nedges, nboxes;
static uint64_t box_mask[64];       /* the four edges of each box */
static int edge_box[64][2];         /* the boxes an edge borders (-1: none) */
static uint64_t full;
static uint64_t *table;             /* key << 16 | (lo + 128) << 8 | (hi + 128); 0 = empty */
static uint64_t table_mask;
static long long nodes;
static int nsyms = 1;
static int sym_edge[4][64];         /* image of each edge under the identity and the mirrors */
static int order[64];               /* edges, nearest the centre of the board first */

/* horizontal edge above row r (0..rows), column c: r * cols + c;
 * vertical edge left of column c (0..cols), row r: (rows + 1) * cols + r * (cols + 1) + c */
static int h_edge(int r, int c) { return r * cols + c; }
static int v_edge(int r, int c) { return (rows + 1) * cols + r * (cols + 1) + c; }

/* twice the distance (|dx| + |dy|) of an edge's midpoint from the board's centre, doubled again */
static int centre_distance(int e) {
    int x2, y2; /* midpoint, doubled */
    if (e < (rows + 1) * cols) { int r = e / cols, c = e % cols; x2 = 2 * c + 1; y2 = 2 * r; }
    else { int i = e - (rows + 1) * cols, r = i / (cols + 1), c = i % (cols + 1); x2 = 2 * c; y2 = 2 * r + 1; }
    return abs(x2 - cols) + abs(y2 - rows);
}

static void build(void) {
    nedges = (rows + 1) * cols + rows * (cols + 1);
    nboxes = rows * cols;
    full = nedges == 64 ? ~0ULL : (1ULL << nedges) - 1;
    for (int e = 0; e < nedges; e++) edge_box[e][0] = edge_box[e][1] = -1;
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) {
            int b = r * cols + c;
            int es[4] = {h_edge(r, c), h_edge(r + 1, c), v_edge(r, c), v_edge(r, c + 1)};
            box_mask[b] = 0;
            for (int i = 0; i < 4; i++) {
                box_mask[b] |= 1ULL << es[i];
                if (edge_box[es[i]][0] < 0) edge_box[es[i]][0] = b; else edge_box[es[i]][1] = b;
            }
        }
    for (int e = 0; e < nedges; e++) order[e] = e;
    for (int i = 1; i < nedges; i++) /* insertion sort: stable, so ties keep edge order */
        for (int j = i; j > 0 && centre_distance(order[j]) < centre_distance(order[j - 1]); j--) {
            int t = order[j]; order[j] = order[j - 1]; order[j - 1] = t;
        }
}

/* the left-right, top-bottom and both mirrors (rotations only fit square boards; not used) */
static void build_symmetries(void) {
    nsyms = 4;
    for (int m = 0; m < 4; m++) {
        int flip_c = m & 1, flip_r = m >> 1 & 1;
        for (int r = 0; r <= rows; r++)
            for (int c = 0; c < cols; c++)
                sym_edge[m][h_edge(r, c)] = h_edge(flip_r ? rows - r : r, flip_c ? cols - 1 - c : c);
        for (int r = 0; r < rows; r++)
            for (int c = 0; c <= cols; c++)
                sym_edge[m][v_edge(r, c)] = v_edge(flip_r ? rows - 1 - r : r, flip_c ? cols - c : c);
    }
}

static uint64_t canonical(uint64_t drawn) {
    uint64_t best = drawn;
    for (int m = 1; m < nsyms; m++) {
        uint64_t image = 0;
        for (int e = 0; e < nedges; e++) if (drawn >> e & 1) image |= 1ULL << sym_edge[m][e];
        if (image < best) best = image;
    }
    return best;
}

static int closes(uint64_t drawn, int e) {
    uint64_t after = drawn | 1ULL << e;
    int n = 0;
    for (int i = 0; i < 2; i++) {
        int b = edge_box[e][i];
        if (b >= 0 && (after & box_mask[b]) == box_mask[b]) n++;
    }
    return n;
}

static int open_boxes(uint64_t drawn) {
    int n = 0;
    for (int b = 0; b < nboxes; b++) if ((drawn & box_mask[b]) != box_mask[b]) n++;
    return n;
}

/* future margin for the player to move, fail-soft in (alpha, beta) */
static int search(uint64_t drawn, int alpha, int beta) {
    if (drawn == full) return 0;
    nodes++;
    int rest = open_boxes(drawn);
    if (rest <= alpha) return rest;
    if (-rest >= beta) return -rest;
    uint64_t key = nsyms > 1 ? canonical(drawn) : drawn;
    uint64_t slot = (key * 0x9E3779B97F4A7C15ULL) >> 20 & table_mask;
    uint64_t entry = table[slot];
    int lo = -rest, hi = rest;
    if (entry && entry >> 16 == key) {
        lo = (int)(entry >> 8 & 255) - 128;
        hi = (int)(entry & 255) - 128;
        if (lo >= beta) return lo;
        if (hi <= alpha) return hi;
        if (lo == hi) return lo;
        if (lo > alpha) alpha = lo;
        if (hi < beta) beta = hi;
    }
    int a0 = alpha, b0 = beta, best = -1000;
    for (int pass = 0; pass < 2 && best < beta; pass++)
        for (int i = 0; i < nedges && best < beta; i++) {
            int e = order[i];
            if (drawn >> e & 1) continue;
            int c = closes(drawn, e);
            if ((pass == 0) != (c > 0)) continue;
            int v;
            if (c) v = c + search(drawn | 1ULL << e, (alpha > best ? alpha : best) - c, beta - c);
            else v = -search(drawn | 1ULL << e, -beta, -(alpha > best ? alpha : best));
            if (v > best) best = v;
        }
    if (best <= a0) { if (best < hi) hi = best; }
    else if (best >= b0) { if (best > lo) lo = best; }
    else lo = hi = best;
    table[slot] = key << 16 | (uint64_t)(lo + 128) << 8 | (uint64_t)(hi + 128);
    return best;
}

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: dots_check ROWS COLS [LOG2_TABLE_ENTRIES]\n"); return 2; }
    rows = atoi(argv[1]);
    cols = atoi(argv[2]);
    int bits = argc > 3 ? atoi(argv[3]) : 26;
    if (rows < 1 || cols < 1 || (rows + 1) * cols + rows * (cols + 1) > 47 || bits < 10 || bits > 32) {
        fprintf(stderr, "dots_check: need 1 <= rows, cols with at most 47 edges, 10 <= table bits <= 32\n");
        return 2;
    }
    build();
    if (argc > 4) build_symmetries();
    table_mask = (1ULL << bits) - 1;
    table = calloc(1ULL << bits, sizeof *table);
    if (!table) { fprintf(stderr, "dots_check: no memory for 2^%d entries\n", bits); return 1; }
    clock_t start = clock();
    int lo = -nboxes, hi = nboxes, value = 0;
    while (lo < hi) { /* MTD(f): each null-window test moves one bound */
        int test = value == lo ? value + 1 : value;
        value = search(0, test - 1, test);
        if (value < test) hi = value; else lo = value;
        fprintf(stderr, "  at least %+d? %s (%lld positions, %.1f s)\n", test, value >= test ? "yes" : "no", nodes,
                (double)(clock() - start) / CLOCKS_PER_SEC);
    }
    printf("%dx%d%s value %+d nodes %lld seconds %.1f table_MB %llu\n", rows, cols, nsyms > 1 ? " sym" : "", value, nodes,
           (double)(clock() - start) / CLOCKS_PER_SEC, (unsigned long long)((8ULL << bits) >> 20));
    return 0;
}
