// lint-protocol on its own, from IR text: a light-sensitive substrate
// incubated with the lid off (W805) and an analysis with no read before it
// (W803) are warnings; the IR is printed unchanged.
// RUN: %plate opt %s --passes=lint-protocol 2>&1 | FileCheck %s
module "lints" platform=bioforge1 plate=plate96 wells=8x12 capacity=350
  liquid %tmb reagent declared=10000 µL light_sensitive pipetted
  dispense 100 µL of %tmb->A1..B1 tips=per_source  loc=16:4 step=1
  incubate 900 s at 22 °C lid=off  loc=17:4 step=2
  analyze linear at 450 nm  loc=18:4 step=3
// CHECK: <script>:17:4: warning: `tmb` is light sensitive but this incubation takes the lid off{{.*}} [W805]
// CHECK: <script>:18:4: warning: `analyze` has no `read` before it{{.*}} [W803]
// CHECK: module "lints"
// CHECK-NEXT: liquid %tmb reagent declared=10000 µL light_sensitive pipetted
// CHECK-NEXT: dispense 100 µL of %tmb->A1..B1 tips=per_source  loc=16:4 step=1
// CHECK-NEXT: incubate 900 s at 22 °C lid=off  loc=17:4 step=2
// CHECK-NEXT: analyze linear at 450 nm  loc=18:4 step=3
