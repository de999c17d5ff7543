// check-platform on its own, from IR text (normalized: the input shows
// that normalize-units ran): a temperature the heater cannot reach and a
// wavelength the reader has no filter for are errors at the ops' script
// locations; the IR is not printed.
// RUN: %expect-exit 1 %plate opt %s --passes=check-platform 2>&1 | FileCheck %s --implicit-check-not=error:
module "platform" platform=bioforge1 plate=plate96 wells=8x12 capacity=350
  liquid %buffer reagent declared=10000 µL pipetted
  dispense 100 µL of %buffer->A1..A2 tips=per_source  loc=16:4 step=1
  incubate 600 s at 95 °C lid=on  loc=17:4 step=2
  read.absorbance at 999 nm wells=A1..A2  loc=18:4 step=3
// CHECK: <script>:17:4: error: incubation temperature 95 °C is outside the heating plate `HP` range 25..70 °C [E503]
// CHECK: <script>:18:4: error: reader of `bioforge1` has no 999 nm filter (filters: {{.*}}); the nearest is 650 nm{{.*}} [E601]
// CHECK-NOT: module
