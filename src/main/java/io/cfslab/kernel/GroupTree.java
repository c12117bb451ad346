package io.cfslab.kernel;

import io.cfslab.scenario.CgroupSpec;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The task_group tree, numbered in pre-order (root = 0) so that every subtree is the contiguous index range
 * {@code [g, g + subtreeSize(g))}: {@code walk_tg_tree_from()} becomes a loop over an index range, pre-order
 * forwards ({@code tg_throttle_down}) and post-order backwards ({@code tg_unthrottle_up}).
 */
public final class GroupTree {
    private final int size;
    private final int[] parent;
    private final int[] depth;
    private final int[] subtreeSize;
    private final int[] childCount;
    private final String[] path;
    private final Map<String, Integer> byPath = new HashMap<>();

    /** @param cgroups groups in creation order (parents before children), root excluded */
    public GroupTree(List<CgroupSpec> cgroups) {
        size = cgroups.size() + 1;
        Map<String, List<String>> children = new HashMap<>();
        children.put("/", new ArrayList<>());
        for (CgroupSpec c : cgroups) {
            children.computeIfAbsent(parentPath(c.path()), k -> new ArrayList<>()).add(c.path());
            children.putIfAbsent(c.path(), new ArrayList<>());
        }
        parent = new int[size];
        depth = new int[size];
        subtreeSize = new int[size];
        childCount = new int[size];
        path = new String[size];
        int[] counter = {0};
        number("/", -1, 0, children, counter);
    }

    private int number(String p, int parentIndex, int d, Map<String, List<String>> children, int[] counter) {
        int g = counter[0]++;
        path[g] = p;
        parent[g] = parentIndex;
        depth[g] = d;
        byPath.put(p, g);
        List<String> kids = children.getOrDefault(p, List.of());
        childCount[g] = kids.size();
        for (String k : kids) number(k, g, d + 1, children, counter);
        subtreeSize[g] = counter[0] - g;
        return g;
    }

    static String parentPath(String p) {
        int i = p.lastIndexOf('/');
        return i <= 0 ? "/" : p.substring(0, i);
    }

    /** Groups including the root. */
    public int size() { return size; }
    /** Parent index, -1 for the root. */
    public int parent(int g) { return parent[g]; }
    /** 0 for the root. */
    public int depth(int g) { return depth[g]; }
    /** Number of groups in g's subtree, g included: the number of cfs_rqs {@code walk_tg_tree_from} visits per CPU. */
    public int subtreeSize(int g) { return subtreeSize[g]; }
    public int childCount(int g) { return childCount[g]; }
    /** True if group {@code x} is {@code g} or one of its descendants (pre-order: an index range). */
    public boolean inSubtree(int g, int x) { return x >= g && x < g + subtreeSize[g]; }
    public String path(int g) { return path[g]; }
    /** Index of a path, or -1. */
    public int indexOf(String p) { return byPath.getOrDefault(p, -1); }
}
