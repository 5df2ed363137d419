// Empty: the target exists for its header.
#include "CFuzzDriver.h"
