// group-wells on its own, from IR text: each pipetting op gets the fewest
// positions of the 4-channel head, whose channels sit over four neighbouring
// columns of one row on plate96: a full row in three positions, a column in
// one position per row.
// RUN: %plate opt %s --passes=group-wells | FileCheck %s
module "groups" platform=bioforge1 plate=plate96 wells=8x12 capacity=350
  liquid %buffer reagent declared=10000 µL pipetted
  dispense 50 µL of %buffer->A1..A12 tips=per_source  loc=16:4 step=1
  dispense 50 µL of %buffer->A1..D1 tips=per_source  loc=17:4 step=2
  aspirate 20 µL from A1..A12 tips=per_well  loc=18:4 step=3
  incubate 600 s at 37 °C lid=on  loc=19:4 step=4
// CHECK: dispense 50 µL of %buffer->A1..A12 tips=per_source blocks=[A1/1111,A5/1111,A9/1111]  loc=16:4 step=1
// CHECK-NEXT: dispense 50 µL of %buffer->A1..D1 tips=per_source blocks=[A1/1000,B1/1000,C1/1000,D1/1000]  loc=17:4 step=2
// CHECK-NEXT: aspirate 20 µL from A1..A12 tips=per_well blocks=[A1/1111,A5/1111,A9/1111]  loc=18:4 step=3
// CHECK-NEXT: incubate 600 s at 37 °C lid=on  loc=19:4 step=4
