// Package tour computes covering tours: on a finite directed multigraph
// with an initial node and final nodes, a set of paths, each from the
// initial node to a final node, that together traverse every edge lying on
// some initial-to-final path at least once, with the smallest total
// length. It is the "Chinese postman" step of test generation from
// predicate abstraction (Julliand, Masson, Tissot, "Generating security
// tests in addition to functional tests", §VII-B): every path of the tour over the
// synchronised product SP of an abstraction with a test purpose is a
// symbolic abstract test.
//
// The paper runs Thimbleby's implementation ("The directed Chinese
// postman problem", Software: Practice and Experience 33(11), 2003). We
// solve the same problem as Edmonds and Johnson ("Matching, Euler tours
// and the Chinese postman", Math. Programming 5, 1973) reduce it, with a
// min-cost flow:
//
//  1. keep the coverable edges: those whose source is reachable from the
//     initial node and whose target reaches a final node;
//  2. add a reset edge of cost 0 from each reachable final node to the
//     initial node (a test ends, the next one starts afresh); coverable
//     edges cost 1;
//  3. every coverable edge must be traversed at least once: the
//     imbalance in-degree - out-degree of each node is made up by a
//     min-cost flow (successive shortest paths, Bellman-Ford on the
//     residual graph, integer costs) from the nodes with a surplus of
//     in-edges to those with a surplus of out-edges; the flow on an edge
//     is the number of extra traversals. When the initial node is not
//     final, at least one reset is required (a tour must end in a final
//     node), so the flow is solved once per final node with a lower
//     bound of 1 on its reset and the cheapest kept;
//  4. the resulting multigraph is Eulerian and connected: Hierholzer's
//     algorithm builds an Euler circuit from the initial node, rotated
//     to end with a reset, and cut at the resets into paths.
//
// The total length of the paths (resets excluded) is then minimal among
// all sets of initial-to-final paths covering the coverable edges: any
// such set, closed by one reset per path, is a circulation satisfying the
// same lower bounds. Only the standard library is used.
package tour
