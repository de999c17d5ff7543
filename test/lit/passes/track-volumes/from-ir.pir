// track-volumes on its own, from IR text: the first removal of a wash and
// `aspirate all` are resolved to per-well amounts from the volumes the
// earlier steps left (the wash empties the wells it washes).
// RUN: %plate opt %s --passes=track-volumes 2>&1 | FileCheck %s --implicit-check-not=warning:
module "volumes" platform=bioforge1 plate=plate96 wells=8x12 capacity=350
  liquid %S1 calibrant wells=A1..B1 conc=5 µg/mL pipetted
  liquid %buffer reagent declared=10000 µL pipetted
  dispense 50 µL of %S1->A1..B1 tips=new  loc=16:4 step=1
  dispense 100 µL of %buffer->A1 tips=per_source  loc=17:4 step=2
  wash 1x 300 µL of %buffer wells=A1..B1 tips=per_well  loc=18:4 step=3
  dispense 200 µL of %buffer->B1 tips=per_source  loc=19:4 step=4
  aspirate all from B1 tips=per_well  loc=20:4 step=5
// CHECK: wash 1x 300 µL of %buffer wells=A1..B1 emptied=[A1:150 µL,B1:50 µL] tips=per_well  loc=18:4 step=3
// CHECK-NEXT: dispense 200 µL of %buffer->B1 tips=per_source  loc=19:4 step=4
// CHECK-NEXT: aspirate all from B1 resolved=[B1:200 µL] tips=per_well  loc=20:4 step=5
