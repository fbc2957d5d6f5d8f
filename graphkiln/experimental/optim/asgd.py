"""asgd"""
Adadelta = Adagrad = Adamax = ASGD = NAdam = RAdam = RMSprop = Rprop = SGD = None
